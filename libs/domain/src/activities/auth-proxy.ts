/**
 * Wire schemas of the Auth Proxy's configuration (notes §A3): enable_auth_proxy,
 * update_auth_proxy_config (the full `v1UpdateAuthProxyConfigIntent` of `@turnkey/sdk-types`),
 * disable_auth_proxy, and Latchkey's get_auth_proxy_config query; plus what the proxy process reads
 * of a config (`TAuthProxyRuntime`), since the proxy and the public API share only this lib.
 */
import { z } from 'zod';
import { ZIdentifierSchema } from '../common.js';
import { defineActivityWire } from '../activity.js';
import { emailAddress } from '../email-address.js';
import { OTP_DEFAULTS, VERIFICATION_TOKEN_DEFAULTS, ZEmailCustomizationSchema, ZSmsCustomizationSchema } from './login.js';

/** The words `@turnkey/react-wallet-kit` reads in `enabledProviders`, minus the social providers (§A5). */
export const AUTH_PROXY_METHODS = ['email', 'sms', 'passkey', 'wallet', 'oauth'] as const;
export type TAuthProxyMethod = (typeof AUTH_PROXY_METHODS)[number];
/** `walletKitSettings.enabledSocialProviders`: which OAuth providers `oauth` switches on. */
export const AUTH_PROXY_SOCIAL_PROVIDERS = ['google', 'apple', 'facebook', 'x', 'discord'] as const;

/**
 * Token-bucket rates of the proxy (a Latchkey extension of the config): requests per second per
 * config and per client address (bursts of twice that), and otp_init sends per contact per minute
 * (burst of that many). 0 disables a limit.
 */
export const AUTH_PROXY_RATE_LIMIT_DEFAULTS = { configRps: 50, ipRps: 10, otpPerContactPerMinute: 3 } as const;

/** What an enabled config starts with. Origins `*` is Turnkey's documented default (§A1). */
export const AUTH_PROXY_DEFAULTS = {
  allowedOrigins: ['*'],
  allowedAuthMethods: ['email', 'sms', 'passkey', 'wallet', 'oauth'],
  otpExpirationSeconds: OTP_DEFAULTS.expirationSeconds,
  verificationTokenExpirationSeconds: VERIFICATION_TOKEN_DEFAULTS.expirationSeconds,
  sessionExpirationSeconds: 900,
  otpAlphanumeric: true,
  otpLength: 6,
  verificationTokenRequiredForGetAccountPii: false,
  captchaEnabled: false,
} as const;

/** Sessions the proxy may open: up to 30 days. */
export const MAX_AUTH_PROXY_SESSION_SECONDS = 30 * 86_400;

/**
 * An allowed origin: `*` alone, or exactly `scheme://host[:port]` — no path, query, userinfo or
 * partial wildcard (`https://*.example.com` is refused: origins are compared exactly). Lower case,
 * as browsers send them.
 * @returns the refusal, or undefined when acceptable
 */
export function originProblem(o: string): string | undefined {
  if (o === '*') return undefined;
  if (o.includes('*')) return 'must be "*" alone or an exact origin (no partial wildcards)';
  let u: URL;
  try {
    u = new URL(o);
  } catch {
    return 'must be an origin such as https://app.example.com';
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'must be an http:// or https:// origin';
  if (u.username || u.password) return 'must not carry a user name or password';
  if (u.origin !== o) return `must be exactly scheme://host[:port] with no path, query or trailing slash (did you mean ${u.origin}?)`;
  return undefined;
}

const ZOriginSchema = z.string().max(2048, 'must be at most 2048 characters').superRefine((o, ctx) => {
  const problem = originProblem(o);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const seconds = (max: number) => z.number().int('must be an integer').min(1, 'must be at least 1').max(max, `must be at most ${max}`);

/** `v1WalletKitSettingsParams`. */
export const ZWalletKitSettingsSchema = z.object({
  enabledSocialProviders: z.array(z.enum(AUTH_PROXY_SOCIAL_PROVIDERS, { error: `must be one of ${AUTH_PROXY_SOCIAL_PROVIDERS.join(', ')}` })).max(AUTH_PROXY_SOCIAL_PROVIDERS.length).optional(),
  oauthClientIds: z
    .partialRecord(z.enum(AUTH_PROXY_SOCIAL_PROVIDERS, { error: `keys must be among ${AUTH_PROXY_SOCIAL_PROVIDERS.join(', ')}` }), text(512))
    .optional(),
  oauthRedirectUrl: z.url({ error: 'must be a URL' }).max(2048).optional(),
});
export type TWalletKitSettings = z.output<typeof ZWalletKitSettingsSchema>;

/** `v1UpdateAuthProxyConfigIntent`: every field optional; a field given replaces the stored one. */
export const ZUpdateAuthProxyConfigIntentSchema = z.object({
  allowedOrigins: z.array(ZOriginSchema).max(100, 'must have at most 100 entries').optional(),
  allowedAuthMethods: z.array(z.enum(AUTH_PROXY_METHODS, { error: `must be one of ${AUTH_PROXY_METHODS.join(', ')}` })).max(AUTH_PROXY_METHODS.length).optional(),
  sendFromEmailAddress: emailAddress('must be an e-mail address').optional(),
  replyToEmailAddress: emailAddress('must be an e-mail address').optional(),
  emailAuthTemplateId: text(256).optional(),
  otpTemplateId: text(256).optional(),
  emailCustomizationParams: ZEmailCustomizationSchema.optional(),
  smsCustomizationParams: ZSmsCustomizationSchema.optional(),
  walletKitSettings: ZWalletKitSettingsSchema.optional(),
  otpExpirationSeconds: seconds(OTP_DEFAULTS.maxExpirationSeconds).optional(),
  verificationTokenExpirationSeconds: seconds(VERIFICATION_TOKEN_DEFAULTS.maxExpirationSeconds).optional(),
  sessionExpirationSeconds: seconds(MAX_AUTH_PROXY_SESSION_SECONDS).optional(),
  otpAlphanumeric: z.boolean().optional(),
  otpLength: z.number().int('must be an integer').min(6, 'must be from 6 to 9').max(9, 'must be from 6 to 9').optional(),
  sendFromEmailSenderName: text(256).optional(),
  verificationTokenRequiredForGetAccountPii: z.boolean().optional(),
  socialLinkingClientIds: z.array(text(512)).max(50, 'must have at most 50 entries').optional(),
  captchaEnabled: z.boolean().optional(),
  /** Latchkey extension: the proxy's rate limits (AUTH_PROXY_RATE_LIMIT_DEFAULTS). */
  rateLimits: z
    .object({
      configRps: z.number().min(0).max(100_000).optional(),
      ipRps: z.number().min(0).max(100_000).optional(),
      otpPerContactPerMinute: z.number().min(0).max(10_000).optional(),
    })
    .optional(),
});
export type TUpdateAuthProxyConfigIntent = z.output<typeof ZUpdateAuthProxyConfigIntentSchema>;

/** The stored settings: the update intent's fields with every default filled in. */
export interface TAuthProxySettings {
  allowedOrigins: string[];
  allowedAuthMethods: string[];
  sendFromEmailAddress?: string;
  replyToEmailAddress?: string;
  emailAuthTemplateId?: string;
  otpTemplateId?: string;
  emailCustomizationParams?: z.output<typeof ZEmailCustomizationSchema>;
  smsCustomizationParams?: z.output<typeof ZSmsCustomizationSchema>;
  walletKitSettings: { enabledSocialProviders: string[]; oauthClientIds: Record<string, string>; oauthRedirectUrl?: string };
  otpExpirationSeconds: number;
  verificationTokenExpirationSeconds: number;
  sessionExpirationSeconds: number;
  otpAlphanumeric: boolean;
  otpLength: number;
  sendFromEmailSenderName?: string;
  verificationTokenRequiredForGetAccountPii: boolean;
  socialLinkingClientIds: string[];
  captchaEnabled: boolean;
  rateLimits: { configRps: number; ipRps: number; otpPerContactPerMinute: number };
}

/** Settings from what is stored (possibly older or partial) with the defaults filled in. */
export function authProxySettingsOf(stored: Partial<TAuthProxySettings>): TAuthProxySettings {
  const d = AUTH_PROXY_DEFAULTS;
  const w: Partial<TAuthProxySettings['walletKitSettings']> = stored.walletKitSettings ?? {};
  return {
    ...stored,
    allowedOrigins: stored.allowedOrigins ?? [...d.allowedOrigins],
    allowedAuthMethods: stored.allowedAuthMethods ?? [...d.allowedAuthMethods],
    walletKitSettings: { enabledSocialProviders: w.enabledSocialProviders ?? [], oauthClientIds: w.oauthClientIds ?? {}, ...(w.oauthRedirectUrl ? { oauthRedirectUrl: w.oauthRedirectUrl } : {}) },
    otpExpirationSeconds: stored.otpExpirationSeconds ?? d.otpExpirationSeconds,
    verificationTokenExpirationSeconds: stored.verificationTokenExpirationSeconds ?? d.verificationTokenExpirationSeconds,
    sessionExpirationSeconds: stored.sessionExpirationSeconds ?? d.sessionExpirationSeconds,
    otpAlphanumeric: stored.otpAlphanumeric ?? d.otpAlphanumeric,
    otpLength: stored.otpLength ?? d.otpLength,
    verificationTokenRequiredForGetAccountPii: stored.verificationTokenRequiredForGetAccountPii ?? d.verificationTokenRequiredForGetAccountPii,
    socialLinkingClientIds: stored.socialLinkingClientIds ?? [],
    captchaEnabled: stored.captchaEnabled ?? d.captchaEnabled,
    rateLimits: { ...AUTH_PROXY_RATE_LIMIT_DEFAULTS, ...(stored.rateLimits ?? {}) },
  };
}

/** Applies an update intent to stored settings (a field given replaces the stored one). */
export function applyAuthProxyUpdate(current: TAuthProxySettings, u: TUpdateAuthProxyConfigIntent): TAuthProxySettings {
  const next: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(u)) if (v !== undefined) next[k] = v;
  if (u.rateLimits) next['rateLimits'] = { ...current.rateLimits, ...u.rateLimits };
  return authProxySettingsOf(next as Partial<TAuthProxySettings>);
}

export const ZEnableAuthProxyIntentSchema = z.object({});
export type TEnableAuthProxyIntent = z.output<typeof ZEnableAuthProxyIntentSchema>;
export const ZDisableAuthProxyIntentSchema = z.object({});
export type TDisableAuthProxyIntent = z.output<typeof ZDisableAuthProxyIntentSchema>;

/** `v1EnableAuthProxyResult` (Latchkey adds the config id, the `X-Auth-Proxy-Config-ID` value). */
export interface TEnableAuthProxyResult extends Record<string, unknown> {
  userId: string;
  configId: string;
}
/** `v1UpdateAuthProxyConfigResult`. */
export interface TUpdateAuthProxyConfigResult extends Record<string, unknown> {
  configId: string;
}
/** `v1DisableAuthProxyResult` is `{}`. */
export type TDisableAuthProxyResult = Record<string, never>;

/** get_auth_proxy_config (Latchkey extension): the config, never a secret. */
export type TAuthProxyConfigWire = { configId: string; organizationId: string; enabled: boolean; proxyUserId: string } & TAuthProxySettings;

export const ZGetAuthProxyConfigRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetAuthProxyConfigRequest = z.output<typeof ZGetAuthProxyConfigRequestSchema>;

/**
 * What the proxy process reads of a config through the public API's internal endpoint: the config,
 * and its proxy user's key sealed by the key vault (the proxy opens it with the master key).
 */
export interface TAuthProxyRuntime {
  config: TAuthProxyConfigWire;
  proxyApiPublicKey: string;
  /** Sealed under `authProxyKeyAad(configId)`. */
  sealedProxyPrivateKey: string;
  /** Uncompressed hex of the OTP verifier key (the proxy returns it in otp_init's bundle anyway). */
  otpVerifierPublicKey: string;
}

/** Vault AAD of a proxy user's private key (shared by the engine, which seals, and the proxy, which opens). */
export const authProxyKeyAad = (configId: string) => `auth-proxy-key:${configId}`;
/**
 * AAD of the proxy's internal requests: the proxy seals `sha256(body) timestamp` under it with the
 * shared master key, and the public API opens it — an authenticated request without a new secret.
 */
export const AUTH_PROXY_INTERNAL_AAD = 'auth-proxy-internal-request';
export const AUTH_PROXY_INTERNAL_HEADER = 'x-latchkey-internal';
export const AUTH_PROXY_INTERNAL_PATH = '/internal/v1/auth_proxy_config';
export const ZAuthProxyInternalRequestSchema = z.object({ configId: ZIdentifierSchema });

/** Wire names of `enable_auth_proxy`. */
export const ENABLE_AUTH_PROXY_ACTIVITY = defineActivityWire('enable_auth_proxy', [
  { type: 'ACTIVITY_TYPE_ENABLE_AUTH_PROXY', intentKey: 'enableAuthProxyIntent', resultKey: 'enableAuthProxyResult' },
]);
/** Wire names of `update_auth_proxy_config`. */
export const UPDATE_AUTH_PROXY_CONFIG_ACTIVITY = defineActivityWire('update_auth_proxy_config', [
  { type: 'ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG', intentKey: 'updateAuthProxyConfigIntent', resultKey: 'updateAuthProxyConfigResult' },
]);
/** Wire names of `disable_auth_proxy`. */
export const DISABLE_AUTH_PROXY_ACTIVITY = defineActivityWire('disable_auth_proxy', [
  { type: 'ACTIVITY_TYPE_DISABLE_AUTH_PROXY', intentKey: 'disableAuthProxyIntent', resultKey: 'disableAuthProxyResult' },
]);
