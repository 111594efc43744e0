/**
 * The proxy's endpoints (notes §A2), all POST with a JSON body: each passes the guards (config,
 * origin, rate limits, auth method, captcha), then becomes one stamped activity or query of the
 * proxy user in the parent organization (mapping in §A3) with the config's lifetimes and e-mail
 * settings, and its result is reshaped into the proxy's answer.
 */
import { verifyVerificationToken } from '@latchkey/crypto';
import {
  AppError,
  fromZodIssues,
  ZProxyAccountSchema,
  ZProxyOauth2AuthenticateSchema,
  ZProxyOauthLoginSchema,
  ZProxyOtpInitSchema,
  ZProxyOtpLoginSchema,
  ZProxyOtpVerifySchema,
  ZProxySignupSchema,
  type TProxySignup,
} from '@latchkey/domain';
import { rawBody } from '@latchkey/http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { TConfigSource, TProxyConfig } from '../config-source.js';
import { assertMethodAllowed, assertOriginAllowed, clientParamsOf, CONFIG_ID_HEADER, type TCaptcha, type TMethod, type TRateLimiter } from '../guards.js';
import type { TPublicApiClient, TSigner } from '../public-api-client.js';

export interface TProxyDeps {
  configs: TConfigSource;
  api: TPublicApiClient;
  limits: TRateLimiter;
  captcha: TCaptcha;
  /** LATCHKEY_TURNSTILE_SITE_KEY: the widget's site key wallet_kit_client_params gives rwk. */
  turnstileSiteKey?: string | undefined;
}

/** The request body as JSON (an empty body is `{}` where allowed: rwk's config calls send none). */
function bodyOf(req: FastifyRequest, emptyAllowed: boolean): unknown {
  const raw = rawBody(req.body);
  if (raw.length === 0) {
    if (emptyAllowed) return {};
    throw new AppError('BAD_REQUEST', 'the request body must be a JSON object');
  }
  try {
    const v: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v;
  } catch {
    // refused below
  }
  throw new AppError('BAD_REQUEST', 'the request body must be a JSON object');
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZodIssues('request', r.error.issues);
  return r.data;
}

const signerOf = (cfg: TProxyConfig): TSigner => ({ organizationId: cfg.config.organizationId, publicKey: cfg.proxyApiPublicKey, privateKeyHex: cfg.privateKeyHex });

/** Config (404 naming it when unknown or disabled), origin, then the config's request limits. */
async function admit(deps: TProxyDeps, req: FastifyRequest, reply: FastifyReply): Promise<TProxyConfig> {
  const id = req.headers[CONFIG_ID_HEADER];
  if (typeof id !== 'string' || id === '') throw new AppError('BAD_REQUEST', 'the X-Auth-Proxy-Config-ID header is required: the config id enable_auth_proxy returned');
  const cfg = await deps.configs(id);
  assertOriginAllowed(req, reply, cfg);
  deps.limits.request(cfg, req.ip);
  return cfg;
}

const otpMethod = (otpType: string): TMethod => (otpType === 'OTP_TYPE_SMS' ? 'sms' : 'email');
const expiry = (s: number) => String(s);

/** The auth methods a sign-up uses, each of which the config must allow. */
function signupMethods(p: TProxySignup): TMethod[] {
  const m = new Set<TMethod>();
  if (p.oauthProviders.length > 0) m.add('oauth');
  if (p.authenticators.length > 0) m.add('passkey');
  if (p.verificationToken && p.userEmail) m.add('email');
  if (p.verificationToken && p.userPhoneNumber) m.add('sms');
  if (m.size === 0 && p.apiKeys.length > 0) m.add('wallet');
  if (m.size === 0) throw new AppError('BAD_REQUEST', 'a sign-up needs a credential: a verificationToken with userEmail or userPhoneNumber, oauthProviders, authenticators or apiKeys');
  return [...m];
}

export function registerProxyV1Routes(app: FastifyInstance, deps: TProxyDeps): void {
  const { api } = deps;

  const otpInit = (v2: boolean) => async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyOtpInitSchema, bodyOf(req, false));
    assertMethodAllowed(cfg, otpMethod(p.otpType));
    await deps.captcha(cfg, req);
    deps.limits.contact(cfg, p.contact);
    const c = cfg.config;
    const emailCustomization = { ...(c.emailCustomizationParams ?? {}), ...(c.otpTemplateId ? { templateId: c.otpTemplateId } : {}), ...(p.emailCustomization?.templateId ? { templateId: p.emailCustomization.templateId } : {}) };
    const r = await api.submit<{ otpId: string; otpEncryptionTargetBundle: string }>(
      'init_otp',
      'ACTIVITY_TYPE_INIT_OTP_V3',
      c.organizationId,
      {
        otpType: p.otpType,
        contact: p.contact,
        appName: c.emailCustomizationParams?.appName ?? 'Latchkey',
        otpLength: c.otpLength,
        alphanumeric: c.otpAlphanumeric,
        expirationSeconds: expiry(c.otpExpirationSeconds),
        emailCustomization,
        ...(c.smsCustomizationParams ? { smsCustomization: c.smsCustomizationParams } : {}),
        ...(c.sendFromEmailAddress ? { sendFromEmailAddress: c.sendFromEmailAddress } : {}),
        ...(c.sendFromEmailSenderName ? { sendFromEmailSenderName: c.sendFromEmailSenderName } : {}),
        ...(c.replyToEmailAddress ? { replyToEmailAddress: c.replyToEmailAddress } : {}),
      },
      'initOtpResultV2',
      signerOf(cfg),
    );
    return v2 ? { otpId: r.otpId, otpEncryptionTargetBundle: r.otpEncryptionTargetBundle } : { otpId: r.otpId };
  };
  app.post('/v1/otp_init', otpInit(false));
  app.post('/v1/otp_init_v2', otpInit(true));

  const otpVerify = async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyOtpVerifySchema, bodyOf(req, false));
    const r = await api.submit<{ verificationToken: string }>(
      'verify_otp',
      'ACTIVITY_TYPE_VERIFY_OTP_V2',
      cfg.config.organizationId,
      { otpId: p.otpId, ...(p.encryptedOtpBundle ? { encryptedOtpBundle: p.encryptedOtpBundle } : { otpCode: p.otpCode, ...(p.publicKey ? { publicKey: p.publicKey } : {}) }), expirationSeconds: expiry(cfg.config.verificationTokenExpirationSeconds) },
      'verifyOtpResult',
      signerOf(cfg),
    );
    return { verificationToken: r.verificationToken };
  };
  app.post('/v1/otp_verify', otpVerify);
  app.post('/v1/otp_verify_v2', otpVerify);

  const otpLogin = async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyOtpLoginSchema, bodyOf(req, false));
    const r = await api.submit<{ session: string }>(
      'otp_login',
      'ACTIVITY_TYPE_OTP_LOGIN_V2',
      p.organizationId ?? cfg.config.organizationId,
      {
        verificationToken: p.verificationToken,
        publicKey: p.publicKey,
        invalidateExisting: p.invalidateExisting ?? false,
        expirationSeconds: expiry(cfg.config.sessionExpirationSeconds),
        ...(p.clientSignature ? { clientSignature: p.clientSignature } : {}),
      },
      'otpLoginResult',
      signerOf(cfg),
    );
    return { session: r.session };
  };
  app.post('/v1/otp_login', otpLogin);
  app.post('/v1/otp_login_v2', otpLogin);

  app.post('/v1/oauth_login', async (req, reply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyOauthLoginSchema, bodyOf(req, false));
    assertMethodAllowed(cfg, 'oauth');
    const r = await api.submit<{ session: string }>(
      'oauth_login',
      'ACTIVITY_TYPE_OAUTH_LOGIN',
      p.organizationId ?? cfg.config.organizationId,
      { oidcToken: p.oidcToken, publicKey: p.publicKey, invalidateExisting: p.invalidateExisting ?? false, expirationSeconds: expiry(cfg.config.sessionExpirationSeconds) },
      'oauthLoginResult',
      signerOf(cfg),
    );
    return { session: r.session };
  });

  app.post('/v1/oauth2_authenticate', async (req, reply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyOauth2AuthenticateSchema, bodyOf(req, false));
    assertMethodAllowed(cfg, 'oauth');
    const { oauth2Credentials } = await api.query<{ oauth2Credentials: { oauth2CredentialId: string; provider: string; clientId: string }[] }>('list_oauth2_credentials', { organizationId: cfg.config.organizationId }, signerOf(cfg));
    const cred = oauth2Credentials.find((c) => c.provider === p.provider && c.clientId === p.clientId);
    if (!cred) throw new AppError('NOT_FOUND', `no OAuth 2.0 credential for ${p.provider} with client id ${p.clientId} in organization ${cfg.config.organizationId}; create one with create_oauth2_credential`);
    const r = await api.submit<{ oidcToken: string }>(
      'oauth2_authenticate',
      'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE',
      cfg.config.organizationId,
      { oauth2CredentialId: cred.oauth2CredentialId, authCode: p.authCode, redirectUri: p.redirectUri, codeVerifier: p.codeVerifier, nonce: p.nonce },
      'oauth2AuthenticateResult',
      signerOf(cfg),
    );
    return { oidcToken: r.oidcToken };
  });

  const signup = async (req: FastifyRequest, reply: FastifyReply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxySignupSchema, bodyOf(req, false));
    for (const m of signupMethods(p)) assertMethodAllowed(cfg, m);
    await deps.captcha(cfg, req);
    // Claims without a token would let anyone take another person's (iss, sub, aud) (README "OAuth identities by claims").
    if (p.oauthProviders.some((o) => typeof o['oidcToken'] !== 'string')) throw new AppError('BAD_REQUEST', 'oauthProviders: each needs its oidcToken (claims alone are not taken through the auth proxy)', { field: 'oauthProviders' });
    if ((p.userEmail || p.userPhoneNumber) && !p.verificationToken && p.oauthProviders.length === 0) {
      throw new AppError('BAD_REQUEST', 'verificationToken: required with userEmail or userPhoneNumber (the contact must be verified by otp_verify)', { field: 'verificationToken' });
    }
    const r = await api.submit<{ subOrganizationId: string; rootUserIds: string[]; wallet?: { walletId: string; addresses: string[] } }>(
      'create_sub_organization',
      'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8',
      cfg.config.organizationId,
      {
        subOrganizationName: p.organizationName || `sub-org-${Date.now()}`,
        rootUsers: [
          {
            userName: p.userName || p.userEmail || `user-${Date.now()}`,
            ...(p.userEmail ? { userEmail: p.userEmail } : {}),
            ...(p.userPhoneNumber ? { userPhoneNumber: p.userPhoneNumber } : {}),
            apiKeys: p.apiKeys,
            authenticators: p.authenticators,
            oauthProviders: p.oauthProviders,
          },
        ],
        rootQuorumThreshold: 1,
        ...(p.wallet ? { wallet: p.wallet } : {}),
        ...(p.verificationToken ? { verificationToken: p.verificationToken } : {}),
        ...(p.clientSignature ? { clientSignature: p.clientSignature } : {}),
      },
      'createSubOrganizationResultV8',
      signerOf(cfg),
    );
    return { organizationId: r.subOrganizationId, userId: r.rootUserIds[0], ...(r.wallet ? { wallet: r.wallet } : {}), appProofs: [] };
  };
  app.post('/v1/signup', signup);
  app.post('/v1/signup_v2', signup);

  app.post('/v1/account', async (req, reply) => {
    const cfg = await admit(deps, req, reply);
    const p = parse(ZProxyAccountSchema, bodyOf(req, false));
    let filter: { filterType: string; filterValue: string };
    // With a verification token an e-mail or phone lookup finds only accounts that proved the contact.
    let query: 'list_suborgs' | 'list_verified_suborgs' = 'list_suborgs';
    switch (p.filterType) {
      case 'EMAIL':
      case 'PHONE_NUMBER': {
        if (p.verificationToken) {
          let claims;
          try {
            claims = verifyVerificationToken(p.verificationToken, cfg.otpVerifierPublicKey, Date.now());
          } catch (e) {
            throw new AppError('UNAUTHENTICATED', `verificationToken: ${(e as Error).message}`, { field: 'verificationToken' });
          }
          const same = p.filterType === 'EMAIL' ? claims.contact.toLowerCase() === p.filterValue.toLowerCase() : claims.contact === p.filterValue;
          if (!same) throw new AppError('REQUEST_NOT_AUTHORIZED', 'verificationToken: it verifies another contact than filterValue', { field: 'verificationToken' });
          query = 'list_verified_suborgs';
        } else if (cfg.config.verificationTokenRequiredForGetAccountPii) {
          throw new AppError('REQUEST_NOT_AUTHORIZED', `verificationToken: required to look an account up by ${p.filterType} (auth proxy config ${cfg.config.configId} sets verificationTokenRequiredForGetAccountPii)`, { field: 'verificationToken' });
        }
        filter = { filterType: p.filterType, filterValue: p.filterValue };
        break;
      }
      case 'OIDC_TOKEN':
        filter = { filterType: 'OIDC_TOKEN', filterValue: p.oidcToken ?? p.filterValue };
        break;
      case 'PUBLIC_KEY':
      case 'CREDENTIAL_ID':
      case 'NAME':
      case 'USERNAME':
        filter = { filterType: p.filterType, filterValue: p.filterValue };
        break;
      case 'OIDC_CLAIMS':
        // filterValue is JSON {iss, sub, aud} (core's addOauthProvider); list_suborgs checks its shape.
        filter = { filterType: 'OIDC_CLAIMS', filterValue: p.filterValue };
        break;
      default:
        throw new AppError('BAD_REQUEST', `filterType: must be one of EMAIL, PHONE_NUMBER, OIDC_TOKEN, OIDC_CLAIMS, PUBLIC_KEY, CREDENTIAL_ID, NAME, USERNAME`, { field: 'filterType' });
    }
    const { organizationIds } = await api.query<{ organizationIds: string[] }>(query, { organizationId: cfg.config.organizationId, ...filter, paginationOptions: { limit: '1' } }, signerOf(cfg));
    return organizationIds[0] ? { organizationId: organizationIds[0] } : {};
  });

  app.post('/v1/wallet_kit_config', async (req, reply) => {
    const cfg = await admit(deps, req, reply);
    bodyOf(req, true);
    const c = cfg.config;
    const oauth = c.allowedAuthMethods.includes('oauth');
    const enabledProviders = [...c.allowedAuthMethods.filter((m) => m !== 'oauth'), ...(oauth ? c.walletKitSettings.enabledSocialProviders : [])];
    return {
      enabledProviders,
      sessionExpirationSeconds: String(c.sessionExpirationSeconds),
      organizationId: c.organizationId,
      oauthClientIds: c.walletKitSettings.oauthClientIds,
      ...(c.walletKitSettings.oauthRedirectUrl ? { oauthRedirectUrl: c.walletKitSettings.oauthRedirectUrl } : {}),
      otpAlphanumeric: c.otpAlphanumeric,
      otpLength: String(c.otpLength),
    };
  });

  app.post('/v1/wallet_kit_client_params', async (req, reply) => {
    const cfg = await admit(deps, req, reply);
    bodyOf(req, true);
    return clientParamsOf(cfg, deps.turnstileSiteKey);
  });
}
