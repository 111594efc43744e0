/**
 * Rate limits: a token bucket per client IP address, charged as each request arrives, and one per
 * credential, charged only once the credential's stamp is verified — a stranger who merely names
 * someone's public key must not be able to spend that customer's budget. Both answer 429
 * RATE_LIMITED (gRPC RESOURCE_EXHAUSTED) with Retry-After and a message naming the limit.
 *
 * The credential check happens inside authentication (the only place that knows a stamp is good),
 * which lives in the engine, below this layer. The HTTP layer hands it over as a function on the
 * request's headers under `ADMIT_CREDENTIAL` (a registry symbol, so the engine needs no import of
 * this lib); authentication calls it right after the signature verifies. No hook: no limit.
 *
 * Counts are per process. Several API processes behind one balancer each enforce their share
 * (TConfig.rateLimits is already divided by LATCHKEY_RATE_LIMIT_PROCESSES): exact with an even
 * balancer, approximate otherwise — the price of not making every request a database write.
 */
import { AppError, type TRateLimit } from '@latchkey/domain';
import type { FastifyInstance } from 'fastify';

/**
 * Where the credential hook sits on a request's headers: `(credentialId, label) => void`, throwing
 * AppError RATE_LIMITED when that credential is over its limit. Declared the same way, by name,
 * in @latchkey/activity-engine (authenticate.ts).
 */
export const ADMIT_CREDENTIAL: unique symbol = Symbol.for('latchkey.admitCredential') as never;

export type TAdmitCredential = (credentialId: string, label: string) => void;

export interface TRateLimitOptions {
  perIp?: TRateLimit | undefined;
  perCredential?: TRateLimit | undefined;
  /** Buckets kept per kind before the oldest is dropped. Default 100,000. */
  maxTracked?: number;
  now?: () => number;
}

interface TBucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key. A bucket that has refilled is the same as none, so full buckets are swept
 * away periodically; past `maxTracked` the oldest is dropped (memory stays bounded whatever the
 * number of clients; a dropped client restarts with a full bucket).
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, TBucket>();
  private readonly perMs: number;
  private lastSweep: number;

  constructor(
    readonly limit: TRateLimit,
    private readonly maxTracked: number,
    private readonly now: () => number,
  ) {
    this.perMs = limit.ratePerSecond / 1000;
    this.lastSweep = now();
  }

  /** Takes a token. @returns 0 when admitted, else the seconds until one is available (at least 1). */
  take(key: string): number {
    const t = this.now();
    let b = this.buckets.get(key);
    if (b === undefined) {
      if (t - this.lastSweep > 10_000) this.sweep(t);
      if (this.buckets.size >= this.maxTracked) this.buckets.delete(this.buckets.keys().next().value as string);
      b = { tokens: this.limit.burst, at: t };
      this.buckets.set(key, b);
    } else {
      b.tokens = Math.min(this.limit.burst, b.tokens + (t - b.at) * this.perMs);
      b.at = t;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / 1000));
  }

  get size(): number {
    return this.buckets.size;
  }

  private sweep(t: number): void {
    this.lastSweep = t;
    for (const [k, b] of this.buckets) if (b.tokens + (t - b.at) * this.perMs >= this.limit.burst) this.buckets.delete(k);
  }
}

/**
 * The bucket of a client address: IPv4 as is, IPv6 by its /64 (one subscriber's allocation — a
 * host picks any address in it for free), IPv4-mapped IPv6 as the IPv4 it maps.
 */
export function clientKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  const zone = lower.indexOf('%');
  const addr = zone === -1 ? lower : lower.slice(0, zone);
  const [head, tail] = addr.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = tail === undefined ? headGroups : [...headGroups, ...new Array<string>(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

function tooMany(what: string, limit: TRateLimit, retryAfterSeconds: number, fields: Record<string, unknown>): AppError {
  return new AppError(
    'RATE_LIMITED',
    `rate limit exceeded: ${what} may make ${fmt(limit.ratePerSecond)} requests per second (bursts of ${fmt(limit.burst)}) to this server; retry after ${retryAfterSeconds} s`,
    { ...fields, ratePerSecond: limit.ratePerSecond, burst: limit.burst, retryAfterSeconds },
  );
}

/**
 * Installs the limits on every route of `app` (a no-op for a limit that is absent). The per-IP
 * check runs in an onRequest hook (before the body is read); the credential hook is put on the
 * headers for authentication to call.
 */
export function registerRateLimits(app: FastifyInstance, opts: TRateLimitOptions): void {
  const now = opts.now ?? Date.now;
  const max = opts.maxTracked ?? 100_000;
  const byIp = opts.perIp ? new TokenBuckets(opts.perIp, max, now) : undefined;
  const byCredential = opts.perCredential ? new TokenBuckets(opts.perCredential, max, now) : undefined;
  if (!byIp && !byCredential) return;

  const admit: TAdmitCredential | undefined = byCredential
    ? (credentialId, label) => {
        const wait = byCredential.take(credentialId);
        if (wait > 0) throw tooMany(`one credential (${label})`, byCredential.limit, wait, { limit: 'credential', credential: label });
      }
    : undefined;

  // Synchronous hook: it runs on every request, before the body is read.
  app.addHook('onRequest', (req, _reply, done) => {
    if (byIp) {
      const key = clientKey(req.ip);
      const wait = byIp.take(key);
      if (wait > 0) {
        done(tooMany(`one client address (${key})`, byIp.limit, wait, { limit: 'ip', clientAddress: key }));
        return;
      }
    }
    if (admit) (req.headers as Record<symbol, unknown>)[ADMIT_CREDENTIAL] = admit;
    done();
  });
}
