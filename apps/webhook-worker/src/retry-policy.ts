/**
 * What an attempt's answer means, and when to try again. 2xx delivered; 5xx, 429, network errors
 * and timeouts retried; everything else (3xx — redirects are never followed — and other 4xx)
 * final. Turnkey treats 429 as final; Latchkey retries it and honours Retry-After, since a
 * receiver that asks to slow down has not refused the event.
 */
import type { TAttemptOutcome } from '@latchkey/persistence';
import type { TWebhookConfig } from './config.js';

/**
 * The wait before the retry that follows failed attempt `attempt` (1-based): full jitter, a
 * uniform random time up to min(max, base × 2^(attempt−1)).
 */
export function backoffMs(attempt: number, c: Pick<TWebhookConfig, 'retryBaseMs' | 'retryMaxMs'>, random: () => number = Math.random): number {
  const cap = Math.min(c.retryMaxMs, c.retryBaseMs * 2 ** Math.min(attempt - 1, 40));
  return Math.floor(random() * cap);
}

/** Retry-After (delta-seconds or an HTTP date) in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** An answer, a network failure (retried), or a destination the URL rules refuse (final). */
export type TAttemptResult = { statusCode: number; retryAfter?: string | undefined } | { error: string } | { refused: string };

/**
 * The outcome to record for one attempt. A retry past `maxAttempts` becomes a dead letter; a
 * 429's Retry-After replaces the backoff (capped at the retry maximum).
 */
export function decideOutcome(attempt: number, r: TAttemptResult, c: Pick<TWebhookConfig, 'retryBaseMs' | 'retryMaxMs' | 'maxAttempts'>, now: number, random?: () => number): TAttemptOutcome {
  let retry: { statusCode: number | null; error: string; retryInMs: number } | undefined;
  if ('refused' in r) return { kind: 'dead', statusCode: null, error: r.refused };
  if ('error' in r) {
    retry = { statusCode: null, error: r.error, retryInMs: backoffMs(attempt, c, random) };
  } else if (r.statusCode >= 200 && r.statusCode < 300) {
    return { kind: 'delivered', statusCode: r.statusCode };
  } else if (r.statusCode === 429) {
    const asked = parseRetryAfter(r.retryAfter, now);
    retry = { statusCode: 429, error: 'HTTP 429', retryInMs: asked !== undefined ? Math.min(asked, c.retryMaxMs) : backoffMs(attempt, c, random) };
  } else if (r.statusCode >= 500) {
    retry = { statusCode: r.statusCode, error: `HTTP ${r.statusCode}`, retryInMs: backoffMs(attempt, c, random) };
  } else {
    const why = r.statusCode >= 300 && r.statusCode < 400 ? ' (redirects are not followed)' : '';
    return { kind: 'dead', statusCode: r.statusCode, error: `HTTP ${r.statusCode}${why}` };
  }
  if (attempt >= c.maxAttempts) return { kind: 'dead', statusCode: retry.statusCode, error: `gave up after ${attempt} attempts: ${retry.error}` };
  return { kind: 'retry', ...retry };
}
