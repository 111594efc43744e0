/** The worker's settings and its retry schedule. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asyncCommitUrl } from '../src/async-commit-url.js';
import { parseWebhookConfig } from '../src/config.js';
import { backoffMs, decideOutcome, parseRetryAfter } from '../src/retry-policy.js';

describe('parseWebhookConfig', () => {
  it('has the documented defaults', () => {
    expect(parseWebhookConfig({})).toEqual({
      timeoutMs: 10_000,
      maxAttempts: 12,
      retryBaseMs: 10_000,
      retryMaxMs: 21_600_000,
      leaseMs: 30_000,
      logDays: 14,
      concurrency: 64,
      pollMs: 1_000,
      allowInsecureUrls: false,
    });
  });

  it('names the variable it refuses', () => {
    expect(() => parseWebhookConfig({ LATCHKEY_WEBHOOK_MAX_ATTEMPTS: 'many' })).toThrow(/LATCHKEY_WEBHOOK_MAX_ATTEMPTS must be an integer from 1 to 100, got "many"/);
    expect(() => parseWebhookConfig({ LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'yes' })).toThrow(/LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS must be true or false/);
    expect(() => parseWebhookConfig({ LATCHKEY_WEBHOOK_LEASE_MS: '5000', LATCHKEY_WEBHOOK_TIMEOUT_MS: '10000' })).toThrow(/LATCHKEY_WEBHOOK_LEASE_MS \(5000\) must exceed LATCHKEY_WEBHOOK_TIMEOUT_MS/);
  });
});

describe('the retry schedule', () => {
  const c = { retryBaseMs: 10_000, retryMaxMs: 21_600_000, maxAttempts: 12 };

  it('waits a random time up to min(max, base × 2^(n−1)) (full jitter)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (n, r) => {
        const wait = backoffMs(n, c, () => r);
        expect(wait).toBeGreaterThanOrEqual(0);
        expect(wait).toBeLessThan(Math.min(c.retryMaxMs, c.retryBaseMs * 2 ** (n - 1)));
      }),
    );
    expect(backoffMs(1, c, () => 0.5)).toBe(5_000);
    expect(backoffMs(12, c, () => 0.5)).toBe(10_240_000);
    expect(backoffMs(13, c, () => 0.5)).toBe(10_800_000);
  });

  it('sorts answers: 2xx delivered; 5xx, 429 and network errors retried; 3xx and other 4xx final', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    expect(decideOutcome(1, { statusCode: 204 }, c, now)).toEqual({ kind: 'delivered', statusCode: 204 });
    expect(decideOutcome(1, { statusCode: 502 }, c, now, () => 0.5)).toEqual({ kind: 'retry', statusCode: 502, error: 'HTTP 502', retryInMs: 5_000 });
    expect(decideOutcome(1, { error: 'ECONNREFUSED: connect' }, c, now, () => 0)).toMatchObject({ kind: 'retry', statusCode: null });
    expect(decideOutcome(1, { statusCode: 429, retryAfter: '7' }, c, now)).toEqual({ kind: 'retry', statusCode: 429, error: 'HTTP 429', retryInMs: 7_000 });
    expect(decideOutcome(1, { statusCode: 429, retryAfter: 'Wed, 25 Nov 2026 12:00:30 GMT' }, c, now)).toMatchObject({ retryInMs: 30_000 });
    expect(decideOutcome(1, { statusCode: 429, retryAfter: '99999999' }, c, now)).toMatchObject({ retryInMs: c.retryMaxMs });
    expect(decideOutcome(1, { statusCode: 301 }, c, now)).toMatchObject({ kind: 'dead', error: 'HTTP 301 (redirects are not followed)' });
    expect(decideOutcome(1, { statusCode: 404 }, c, now)).toMatchObject({ kind: 'dead', statusCode: 404 });
    expect(decideOutcome(1, { refused: 'url host …' }, c, now)).toMatchObject({ kind: 'dead', error: 'url host …' });
    expect(decideOutcome(12, { statusCode: 500 }, c, now)).toEqual({ kind: 'dead', statusCode: 500, error: 'gave up after 12 attempts: HTTP 500' });
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });
});

describe('asyncCommitUrl', () => {
  it('adds synchronous_commit=off to the startup options, keeping any given', () => {
    expect(new URL(asyncCommitUrl('postgres://u:p@h:5432/db')).searchParams.get('options')).toBe('-c synchronous_commit=off');
    const kept = new URL(asyncCommitUrl('postgres://u:p@h/db?sslmode=require&options=-c%20statement_timeout%3D5000'));
    expect(kept.searchParams.get('options')).toBe('-c statement_timeout=5000 -c synchronous_commit=off');
    expect(kept.searchParams.get('sslmode')).toBe('require');
    expect(kept.username).toBe('u');
  });
});
