/**
 * What every proxy request passes before anything is forwarded: its config (X-Auth-Proxy-Config-ID),
 * its origin, the config's rate limits, the auth method the endpoint needs, and captcha where the
 * config asks for it. Each refusal names what to fix.
 */
import { clientKey, TokenBuckets } from '@latchkey/http';
import { AppError } from '@latchkey/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TProxyConfig } from './config-source.js';

export const CONFIG_ID_HEADER = 'x-auth-proxy-config-id';
export const CAPTCHA_HEADER = 'x-captcha-token';

/**
 * A browser request whose Origin the config does not allow is refused before anything is
 * forwarded, and gets no CORS header (the browser hides the answer from the page). A request
 * without Origin (a server-side caller; Node's fetch sends none) is allowed only under `*`.
 * @throws AppError REQUEST_NOT_AUTHORIZED naming the origin and the config
 */
export function assertOriginAllowed(req: FastifyRequest, reply: FastifyReply, cfg: TProxyConfig): void {
  const origins = cfg.config.allowedOrigins;
  const origin = req.headers.origin;
  if (origins.includes('*')) return;
  if (origin === undefined) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: a request without an Origin header is allowed only when auth proxy config ${cfg.config.configId} allows "*"`);
  }
  if (!origins.includes(origin)) {
    reply.removeHeader('access-control-allow-origin');
    throw new AppError('REQUEST_NOT_AUTHORIZED', `request not authorized: origin ${origin} is not allowed by auth proxy config ${cfg.config.configId}`, { origin });
  }
}

/** The auth method words of the config (`allowedAuthMethods`), and how each refusal reads for core. */
export type TMethod = 'email' | 'sms' | 'passkey' | 'wallet' | 'oauth';

/**
 * @throws AppError REQUEST_NOT_AUTHORIZED whose message contains `<METHOD> disallowed` (core maps
 *   `OAUTH disallowed` to AUTH_METHOD_NOT_ENABLED, notes §A1)
 */
export function assertMethodAllowed(cfg: TProxyConfig, method: TMethod): void {
  if (cfg.config.allowedAuthMethods.includes(method)) return;
  throw new AppError('REQUEST_NOT_AUTHORIZED', `${method.toUpperCase()} disallowed: auth proxy config ${cfg.config.configId} does not allow the ${method} method (allowedAuthMethods: ${cfg.config.allowedAuthMethods.join(', ') || 'none'})`, {
    method,
  });
}

/** Token buckets per config, per (config, client address) and per (config, contact), rates from each config. */
export function createRateLimiter(now: () => number = Date.now) {
  const buckets = new Map<string, TokenBuckets>();
  const bucketsFor = (kind: string, ratePerSecond: number, burst: number) => {
    const key = `${kind}:${ratePerSecond}:${burst}`;
    let b = buckets.get(key);
    if (!b) {
      b = new TokenBuckets({ ratePerSecond, burst }, 100_000, now);
      buckets.set(key, b);
    }
    return b;
  };
  const charge = (b: TokenBuckets, key: string, what: string) => {
    const wait = b.take(key);
    if (wait > 0) {
      throw new AppError('RATE_LIMITED', `rate limited: ${what} (at most ${b.limit.ratePerSecond < 1 ? `${Math.round(b.limit.ratePerSecond * 60)} per minute` : `${b.limit.ratePerSecond} per second`}, bursts of ${b.limit.burst}); retry in ${wait} s`, {
        limit: what,
        retryAfterSeconds: wait,
      });
    }
  };
  return {
    /** @throws AppError RATE_LIMITED naming the limit, with Retry-After */
    request(cfg: TProxyConfig, ip: string): void {
      const { configRps, ipRps } = cfg.config.rateLimits;
      if (ipRps > 0) charge(bucketsFor('ip', ipRps, Math.max(1, 2 * ipRps)), `${cfg.config.configId}|${clientKey(ip)}`, 'requests per client address for this auth proxy config');
      if (configRps > 0) charge(bucketsFor('config', configRps, Math.max(1, 2 * configRps)), cfg.config.configId, 'requests per auth proxy config');
    },
    /** otp_init's limit per contact. @throws AppError RATE_LIMITED */
    contact(cfg: TProxyConfig, contact: string): void {
      const n = cfg.config.rateLimits.otpPerContactPerMinute;
      if (n > 0) charge(bucketsFor('contact', n / 60, n), `${cfg.config.configId}|${contact.toLowerCase()}`, 'codes sent to one contact through this auth proxy config');
    },
  };
}
export type TRateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Cloudflare Turnstile: `X-Captcha-Token` verified with the secret, for configs with captchaEnabled.
 * @throws AppError UNAVAILABLE naming LATCHKEY_TURNSTILE_SECRET when it is not set; BAD_REQUEST when
 *   the token is missing; REQUEST_NOT_AUTHORIZED when Turnstile refuses it
 */
export function createCaptcha(o: { secret: string | undefined; verifyUrl: string }) {
  return async (cfg: TProxyConfig, req: FastifyRequest): Promise<void> => {
    if (!cfg.config.captchaEnabled) return;
    if (!o.secret) throw new AppError('UNAVAILABLE', `captcha is enabled for auth proxy config ${cfg.config.configId} but LATCHKEY_TURNSTILE_SECRET is not set on the server`);
    const token = req.headers[CAPTCHA_HEADER];
    if (typeof token !== 'string' || token === '') throw new AppError('BAD_REQUEST', `captcha required: send the Turnstile token in the X-Captcha-Token header (auth proxy config ${cfg.config.configId} has captchaEnabled)`);
    let ok = false;
    try {
      const res = await fetch(o.verifyUrl, { method: 'POST', body: new URLSearchParams({ secret: o.secret, response: token, remoteip: req.ip }) });
      ok = res.ok && ((await res.json()) as { success?: unknown }).success === true;
    } catch {
      throw new AppError('UNAVAILABLE', 'captcha verification is unreachable; retry later');
    }
    if (!ok) throw new AppError('REQUEST_NOT_AUTHORIZED', 'captcha verification failed: the X-Captcha-Token was refused');
  };
}
export type TCaptcha = ReturnType<typeof createCaptcha>;

/**
 * `/v1/wallet_kit_client_params` (notes §A5): rwk reads `turnstileSiteKey` and, when present, loads
 * Cloudflare Turnstile to make the `X-Captcha-Token` that signup and otp_init then need. Without
 * captcha it answers `{}` (no widget). With captcha on and no site key, rwk would boot without the
 * widget and every sign-up would fail later on a missing token: refused here instead, naming the
 * variable, as a missing secret is.
 * @throws AppError UNAVAILABLE naming LATCHKEY_TURNSTILE_SITE_KEY when captcha is on and it is unset
 */
export function clientParamsOf(cfg: TProxyConfig, siteKey: string | undefined): { turnstileSiteKey?: string } {
  if (!cfg.config.captchaEnabled) return {};
  if (!siteKey) throw new AppError('UNAVAILABLE', `captcha is enabled for auth proxy config ${cfg.config.configId} but LATCHKEY_TURNSTILE_SITE_KEY is not set on the server`);
  return { turnstileSiteKey: siteKey };
}
