/**
 * Configuration of every Latchkey process, read from the environment in one place. Pure: the
 * caller passes the environment in, so it can be tested and documented from one table.
 */
import { z } from 'zod';

/** An issuer-grade base URL: http(s), no credentials, query or fragment (OpenID Connect Discovery §3). */
function isPublicBaseUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash && !value.includes('?') && !value.includes('#');
  } catch {
    return false;
  }
}

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** Each variable, its default and what it does; the README's configuration table mirrors it. */
export const CONFIG_VARIABLES = {
  LATCHKEY_HOST: 'Interface every HTTP app binds to. Default 127.0.0.1.',
  LATCHKEY_PUBLIC_API_PORT: 'Public API (Turnkey-compatible) port. Default 8080.',
  LATCHKEY_AUTH_PROXY_PORT: 'Auth proxy port. Default 8081.',
  LATCHKEY_ADMIN_PORT: 'Admin (tRPC) port. Default 8082.',
  LATCHKEY_WEBHOOK_WORKER_PORT: 'Webhook worker port: /healthz, /readyz and /metrics only (the worker serves no API). Default 8083.',
  LATCHKEY_METRICS: 'on or off: /metrics and the request histogram on every app. Default on (off: no /metrics route and no per-request hook; for measuring their cost).',
  LATCHKEY_METRICS_TOKEN:
    'Bearer token every app asks for on GET /metrics (16 characters or more). Unset: /metrics answers only clients on the loopback interface (the socket peer, never X-Forwarded-For).',
  LATCHKEY_APPS:
    'Comma-separated apps `latchkey start` runs: public-api, auth-proxy, admin, webhook-worker. Default all four. A test instance or a scaled-out node may run fewer (e.g. public-api,webhook-worker).',
  LATCHKEY_DATA_DIR: 'Folder for the embedded PostgreSQL (pg/), master.key and bootstrap.json. Default ./.data.',
  DATABASE_URL: 'postgresql:// URL of an external PostgreSQL. Unset: an embedded PostgreSQL is started in $LATCHKEY_DATA_DIR/pg.',
  LATCHKEY_MASTER_KEY: 'Key-vault master key (64 hex chars or base64 of 32 bytes). Unset: generated once into $LATCHKEY_DATA_DIR/master.key (0600).',
  LATCHKEY_INSECURE_FIXED_SEED:
    'FOR TESTS ONLY (the testkit\'s seed: \'fixed\'): 64 hex characters from which a new installation derives its root API key, server keys, webhook signing key and root ids, the same on every run. Anyone who knows it recomputes those private keys; the launcher warns at every start. Unset (always, outside tests): the CSPRNG.',
  LATCHKEY_ROOT_API_PUBLIC_KEY: 'Compressed P-256 public key (hex) for the first root user. Unset: a key pair is generated and written to bootstrap.json.',
  LATCHKEY_TIMESTAMP_WINDOW_SECONDS: 'How far an activity timestampMs may lie in the past or future. Default 300 (5 minutes).',
  LATCHKEY_APPROVAL_WINDOW_SECONDS:
    'How long the votes on an activity waiting for consensus stay valid, counted from the first: after it they lapse and the activity must be approved again. Default 86400 (24 hours, as Turnkey).',
  LATCHKEY_READ_ONLY_SESSION_SECONDS:
    'Lifetime of the sessions create_read_only_session issues (the X-Session token). Default 3600 (one hour, as Turnkey). Read by the engine when a session is made; checked here at start.',
  LATCHKEY_EMBEDDED_PG_PORT: 'Port of the embedded PostgreSQL. Default 0: a free port is picked at each start.',
  LATCHKEY_EMBEDDED_PG_TEMPLATE:
    "A folder holding an initialised, stopped cluster (pg/) and its pg.password, as the testkit's data-folder template: a data folder without a cluster starts from a copy of it instead of initdb. Set by the testkit; unset normally.",
  LATCHKEY_LOG_LEVEL: 'pino level: fatal, error, warn, info, debug, trace, silent. Default info.',
  LATCHKEY_WEBHOOK_POLL_MS: 'How often the webhook worker polls the outbox when idle. Default 1000.',
  LATCHKEY_PUBLIC_URL:
    'Public base URL of the public API, e.g. https://wallet.example.com: the issuer (iss) of the OIDC tokens oauth2_authenticate issues. Default http://<LATCHKEY_HOST>:<LATCHKEY_PUBLIC_API_PORT>.',
  LATCHKEY_RATE_LIMIT_KEY_RPS:
    'Requests per second one credential (API key, passkey) may make to the public API once its stamp is verified; bursts up to twice that. 429 RESOURCE_EXHAUSTED with Retry-After beyond it. Default 100; 0 disables.',
  LATCHKEY_RATE_LIMIT_IP_RPS: 'Requests per second one client IP address (an IPv6 /64) may make to the public API, stamped or not; bursts up to twice that. Default 300; 0 disables.',
  LATCHKEY_RATE_LIMIT_PROCESSES:
    'How many public-API processes share the load: each enforces its share (the rates and bursts divided by this), as limits are counted per process. Default 1.',
  LATCHKEY_PUBLIC_API_URL: 'Where the auth proxy reaches the public API. Default http://<LATCHKEY_HOST>:<LATCHKEY_PUBLIC_API_PORT>.',
  LATCHKEY_TURNSTILE_SECRET: 'Cloudflare Turnstile secret key the auth proxy verifies X-Captcha-Token with, for configs with captchaEnabled. Unset: such configs answer 503.',
  LATCHKEY_TURNSTILE_SITE_KEY: "Cloudflare Turnstile site key (public) the auth proxy's /v1/wallet_kit_client_params gives @turnkey/react-wallet-kit for configs with captchaEnabled, so it loads the widget that makes X-Captcha-Token. Unset: such configs answer 503 there.",
  LATCHKEY_TURNSTILE_VERIFY_URL: 'Turnstile siteverify endpoint. Default https://challenges.cloudflare.com/turnstile/v0/siteverify.',
  LATCHKEY_TRUSTED_PROXIES:
    'Comma-separated addresses or CIDRs of reverse proxies whose X-Forwarded-For names the client (for the per-IP limit and logs). Default none: the client is the socket peer.',
} as const;

/** An IPv4 or IPv6 address, with an optional prefix length: the shape only (the server parses it). */
const CIDR = /^(?:(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*(?:\/\d{1,3})?)$/;

/** The platform's processes, in the order the launcher starts them. */
export const APP_NAMES = ['public-api', 'auth-proxy', 'admin', 'webhook-worker'] as const;
export type TAppName = (typeof APP_NAMES)[number];

const rate = (fallback: number) => z.coerce.number().min(0).max(1_000_000).default(fallback);

const ZConfigSchema = z.object({
  LATCHKEY_HOST: z.string().min(1).default('127.0.0.1'),
  LATCHKEY_PUBLIC_API_PORT: port(8080),
  LATCHKEY_AUTH_PROXY_PORT: port(8081),
  LATCHKEY_ADMIN_PORT: port(8082),
  LATCHKEY_WEBHOOK_WORKER_PORT: port(8083),
  LATCHKEY_METRICS: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  LATCHKEY_METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').max(256).optional(),
  LATCHKEY_APPS: z
    .string()
    .transform((s) => [...new Set(s.split(',').map((x) => x.trim()).filter((x) => x !== ''))])
    .refine((list) => list.length > 0 && list.every((x) => (APP_NAMES as readonly string[]).includes(x)), `must be a comma-separated list of ${APP_NAMES.join(', ')}`)
    .transform((list) => list as TAppName[])
    .default([...APP_NAMES]),
  LATCHKEY_DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgresql:// URL')
    .optional(),
  LATCHKEY_MASTER_KEY: z.string().min(1).optional(),
  LATCHKEY_INSECURE_FIXED_SEED: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a test seed)')
    .transform((s) => s.toLowerCase())
    .optional(),
  LATCHKEY_ROOT_API_PUBLIC_KEY: z
    .string()
    .regex(/^0[23][0-9a-fA-F]{64}$/, 'must be a compressed P-256 public key in hex (66 characters, 02/03 prefix)')
    .transform((s) => s.toLowerCase())
    .optional(),
  LATCHKEY_TIMESTAMP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  LATCHKEY_APPROVAL_WINDOW_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(86_400),
  LATCHKEY_READ_ONLY_SESSION_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(3600),
  LATCHKEY_EMBEDDED_PG_PORT: port(0),
  LATCHKEY_EMBEDDED_PG_TEMPLATE: z.string().min(1).optional(),
  LATCHKEY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LATCHKEY_WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  LATCHKEY_PUBLIC_URL: z
    .string()
    .refine(isPublicBaseUrl, 'must be an http(s) URL without credentials, query or fragment, e.g. https://wallet.example.com')
    .optional(),
  LATCHKEY_RATE_LIMIT_KEY_RPS: rate(100),
  LATCHKEY_RATE_LIMIT_IP_RPS: rate(300),
  LATCHKEY_RATE_LIMIT_PROCESSES: z.coerce.number().int().min(1).max(1024).default(1),
  LATCHKEY_PUBLIC_API_URL: z.string().refine(isPublicBaseUrl, 'must be an http(s) URL without credentials, query or fragment').optional(),
  LATCHKEY_TURNSTILE_SECRET: z.string().min(1).optional(),
  LATCHKEY_TURNSTILE_SITE_KEY: z.string().min(1).max(256).optional(),
  LATCHKEY_TURNSTILE_VERIFY_URL: z.string().refine(isPublicBaseUrl, 'must be an http(s) URL without credentials, query or fragment').default('https://challenges.cloudflare.com/turnstile/v0/siteverify'),
  LATCHKEY_TRUSTED_PROXIES: z
    .string()
    .transform((s) => s.split(',').map((x) => x.trim()).filter((x) => x !== ''))
    .refine((list) => list.every((x) => CIDR.test(x)), 'must be comma-separated IP addresses or CIDRs, e.g. 10.0.0.0/8,::1')
    .default([]),
});

/** A token bucket: `ratePerSecond` sustained, up to `burst` at once. */
export interface TRateLimit {
  ratePerSecond: number;
  burst: number;
}

export interface TConfig {
  host: string;
  publicApiPort: number;
  authProxyPort: number;
  adminPort: number;
  /** The webhook worker's /healthz, /readyz and /metrics (LATCHKEY_WEBHOOK_WORKER_PORT). */
  webhookWorkerPort: number;
  /** /metrics and the request histogram on (LATCHKEY_METRICS, default on). */
  metricsEnabled: boolean;
  /** The bearer token /metrics asks for (LATCHKEY_METRICS_TOKEN); undefined: loopback clients only. */
  metricsToken: string | undefined;
  /** The apps the launcher runs (LATCHKEY_APPS), in APP_NAMES order. */
  apps: TAppName[];
  dataDir: string;
  databaseUrl: string | undefined;
  masterKey: string | undefined;
  rootApiPublicKey: string | undefined;
  /** LATCHKEY_INSECURE_FIXED_SEED (hex): a test installation's fixed keys and ids; undefined normally. */
  insecureFixedSeed: string | undefined;
  timestampWindowMs: number;
  /** How long a waiting activity's votes count, from the first (LATCHKEY_APPROVAL_WINDOW_SECONDS). */
  approvalWindowMs: number;
  embeddedPgPort: number;
  /** LATCHKEY_EMBEDDED_PG_TEMPLATE: the cluster a new embedded data folder is copied from (the testkit's template). */
  embeddedPgTemplate: string | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  webhookPollMs: number;
  /**
   * The public API's base URL as clients and OIDC verifiers reach it, without a trailing slash:
   * LATCHKEY_PUBLIC_URL, else `http://<host>:<publicApiPort>`.
   */
  publicUrl: string;
  /**
   * The public API's limits in this process (already divided by LATCHKEY_RATE_LIMIT_PROCESSES);
   * absent when that limit is disabled (0).
   */
  rateLimits: { perCredential?: TRateLimit; perIp?: TRateLimit };
  /** Proxies whose X-Forwarded-For is believed (LATCHKEY_TRUSTED_PROXIES); empty: none. */
  trustedProxies: string[];
  /** Where the auth proxy reaches the public API (LATCHKEY_PUBLIC_API_URL), no trailing slash. */
  publicApiUrl: string;
  /** The auth proxy's captcha: verification (LATCHKEY_TURNSTILE_SECRET, _VERIFY_URL) and the widget's site key (_SITE_KEY). */
  turnstile: { secret: string | undefined; siteKey: string | undefined; verifyUrl: string };
}

/** Burst is twice the rate; each of `processes` processes enforces its share. Undefined when disabled. */
function shareOf(ratePerSecond: number, processes: number): TRateLimit | undefined {
  if (ratePerSecond === 0) return undefined;
  return { ratePerSecond: ratePerSecond / processes, burst: Math.max(1, (2 * ratePerSecond) / processes) };
}

const optional = <K extends string, V>(k: K, v: V | undefined): { [P in K]?: V } => (v === undefined ? {} : ({ [k]: v } as { [P in K]: V }));

/**
 * Reads the configuration from an environment map. Empty strings count as unset.
 * @throws Error naming each invalid variable (values of secrets are never echoed).
 */
export function parseConfig(env: Record<string, string | undefined>): TConfig {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(CONFIG_VARIABLES)) {
    const v = env[name];
    if (v !== undefined && v !== '') picked[name] = v;
  }
  const parsed = ZConfigSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration: ${lines.join('; ')}`);
  }
  const c = parsed.data;
  return {
    host: c.LATCHKEY_HOST,
    publicApiPort: c.LATCHKEY_PUBLIC_API_PORT,
    authProxyPort: c.LATCHKEY_AUTH_PROXY_PORT,
    adminPort: c.LATCHKEY_ADMIN_PORT,
    webhookWorkerPort: c.LATCHKEY_WEBHOOK_WORKER_PORT,
    metricsEnabled: c.LATCHKEY_METRICS === 'on',
    metricsToken: c.LATCHKEY_METRICS_TOKEN,
    apps: APP_NAMES.filter((a) => c.LATCHKEY_APPS.includes(a)),
    dataDir: c.LATCHKEY_DATA_DIR,
    databaseUrl: c.DATABASE_URL,
    masterKey: c.LATCHKEY_MASTER_KEY,
    rootApiPublicKey: c.LATCHKEY_ROOT_API_PUBLIC_KEY,
    insecureFixedSeed: c.LATCHKEY_INSECURE_FIXED_SEED,
    timestampWindowMs: c.LATCHKEY_TIMESTAMP_WINDOW_SECONDS * 1000,
    approvalWindowMs: c.LATCHKEY_APPROVAL_WINDOW_SECONDS * 1000,
    embeddedPgPort: c.LATCHKEY_EMBEDDED_PG_PORT,
    embeddedPgTemplate: c.LATCHKEY_EMBEDDED_PG_TEMPLATE,
    logLevel: c.LATCHKEY_LOG_LEVEL,
    webhookPollMs: c.LATCHKEY_WEBHOOK_POLL_MS,
    rateLimits: {
      ...optional('perCredential', shareOf(c.LATCHKEY_RATE_LIMIT_KEY_RPS, c.LATCHKEY_RATE_LIMIT_PROCESSES)),
      ...optional('perIp', shareOf(c.LATCHKEY_RATE_LIMIT_IP_RPS, c.LATCHKEY_RATE_LIMIT_PROCESSES)),
    },
    trustedProxies: c.LATCHKEY_TRUSTED_PROXIES,
    publicApiUrl: (c.LATCHKEY_PUBLIC_API_URL ?? `http://${c.LATCHKEY_HOST.includes(':') ? `[${c.LATCHKEY_HOST}]` : c.LATCHKEY_HOST}:${c.LATCHKEY_PUBLIC_API_PORT}`).replace(/\/+$/, ''),
    turnstile: { secret: c.LATCHKEY_TURNSTILE_SECRET, siteKey: c.LATCHKEY_TURNSTILE_SITE_KEY, verifyUrl: c.LATCHKEY_TURNSTILE_VERIFY_URL },
    publicUrl: (c.LATCHKEY_PUBLIC_URL ?? `http://${c.LATCHKEY_HOST.includes(':') ? `[${c.LATCHKEY_HOST}]` : c.LATCHKEY_HOST}:${c.LATCHKEY_PUBLIC_API_PORT}`).replace(/\/+$/, ''),
  };
}
