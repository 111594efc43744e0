/**
 * The webhook worker's settings, from LATCHKEY_WEBHOOK_* variables (the shared configuration in
 * libs/domain covers only LATCHKEY_WEBHOOK_POLL_MS). Each refusal names its variable and what is
 * accepted; unset or empty means the default.
 */
import { readAllowInsecureWebhookUrls } from '@latchkey/crypto';

export interface TWebhookConfig {
  /** LATCHKEY_WEBHOOK_TIMEOUT_MS: one attempt, connect to last byte. Default 10,000. */
  timeoutMs: number;
  /** LATCHKEY_WEBHOOK_MAX_ATTEMPTS: attempts before a message is dead-lettered. Default 12. */
  maxAttempts: number;
  /** LATCHKEY_WEBHOOK_RETRY_BASE_MS: the first retry waits up to this. Default 10,000. */
  retryBaseMs: number;
  /** LATCHKEY_WEBHOOK_RETRY_MAX_MS: no retry waits longer. Default 21,600,000 (6 h). */
  retryMaxMs: number;
  /** LATCHKEY_WEBHOOK_LEASE_MS: a claim's lifetime; a dead worker's claims are taken over after it. Default 30,000. */
  leaseMs: number;
  /** LATCHKEY_WEBHOOK_LOG_DAYS: how long the delivery log (and delivered messages) are kept. Default 14. */
  logDays: number;
  /** LATCHKEY_WEBHOOK_CONCURRENCY: endpoints in flight at once (one delivery at a time each). Default 64. */
  concurrency: number;
  /** LATCHKEY_WEBHOOK_POLL_MS: the fallback poll when no notification arrives. Default 1,000. */
  pollMs: number;
  /** LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS=true: http:// and private/loopback destinations (development). */
  allowInsecureUrls: boolean;
}

export const WEBHOOK_VARIABLES: Record<string, string> = {
  LATCHKEY_WEBHOOK_TIMEOUT_MS: 'One delivery attempt, connect to last byte, in ms. Default 10000.',
  LATCHKEY_WEBHOOK_MAX_ATTEMPTS: 'Attempts before an event is dead-lettered. Default 12.',
  LATCHKEY_WEBHOOK_RETRY_BASE_MS: 'Backoff base: the n-th retry waits a random time up to min(max, base × 2^(n−1)). Default 10000.',
  LATCHKEY_WEBHOOK_RETRY_MAX_MS: 'Cap on one retry wait, in ms. Default 21600000.',
  LATCHKEY_WEBHOOK_LEASE_MS: 'How long a claimed delivery belongs to one worker before another may take it over. Default 30000.',
  LATCHKEY_WEBHOOK_LOG_DAYS: 'Days the delivery log is kept. Default 14.',
  LATCHKEY_WEBHOOK_CONCURRENCY: 'Endpoints in flight at once (one delivery at a time each). Default 64.',
  LATCHKEY_WEBHOOK_POLL_MS: 'Fallback poll when no notification arrives, in ms. Default 1000.',
  LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS: 'true: allow http:// and private or loopback destinations (development and tests only). Default false.',
};

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return n;
}

const DAY_MS = 86_400_000;

/**
 * Reads the worker's settings from the environment.
 * @throws Error naming the variable when a value is not acceptable, or when the lease does not
 *   outlast an attempt (a claim would expire while its attempt still runs: two workers would send).
 */
export function parseWebhookConfig(env: Record<string, string | undefined>): TWebhookConfig {
  const c: TWebhookConfig = {
    timeoutMs: integer(env, 'LATCHKEY_WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000),
    maxAttempts: integer(env, 'LATCHKEY_WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
    retryBaseMs: integer(env, 'LATCHKEY_WEBHOOK_RETRY_BASE_MS', 10_000, 1, 7 * DAY_MS),
    retryMaxMs: integer(env, 'LATCHKEY_WEBHOOK_RETRY_MAX_MS', 21_600_000, 1, 7 * DAY_MS),
    leaseMs: integer(env, 'LATCHKEY_WEBHOOK_LEASE_MS', 30_000, 1_000, DAY_MS),
    logDays: integer(env, 'LATCHKEY_WEBHOOK_LOG_DAYS', 14, 1, 3650),
    concurrency: integer(env, 'LATCHKEY_WEBHOOK_CONCURRENCY', 64, 1, 4096),
    pollMs: integer(env, 'LATCHKEY_WEBHOOK_POLL_MS', 1_000, 10, 3_600_000),
    allowInsecureUrls: readAllowInsecureWebhookUrls(env),
  };
  if (c.leaseMs <= c.timeoutMs + 1_000) {
    throw new Error(`LATCHKEY_WEBHOOK_LEASE_MS (${c.leaseMs}) must exceed LATCHKEY_WEBHOOK_TIMEOUT_MS (${c.timeoutMs}) by more than 1000 ms: a claim must outlast its attempt`);
  }
  return c;
}
