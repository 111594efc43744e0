/**
 * Requests of the auth proxy's `/v1/*` endpoints (notes §A2), as `@turnkey/core` 2.8.1 sends them
 * (camelCase, `clientSignature` an object). Only what the proxy itself reads is checked here; the
 * nested credential and wallet shapes are the public API's to check when the activity is submitted.
 */
import { z } from 'zod';

const str = (max: number) => z.string().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
const obj = z.record(z.string(), z.unknown());

export const ZProxyOtpInitSchema = z.object({
  otpType: z.enum(['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS'], { error: 'must be OTP_TYPE_EMAIL or OTP_TYPE_SMS' }),
  contact: str(320),
  emailCustomization: z.object({ templateId: z.string().max(256).optional() }).optional(),
});
export const ZProxyOtpVerifySchema = z
  .object({ otpId: str(256), encryptedOtpBundle: str(4096).optional(), otpCode: str(64).optional(), publicKey: str(130).optional() })
  .refine((p) => (p.encryptedOtpBundle === undefined) !== (p.otpCode === undefined), 'give exactly one of encryptedOtpBundle (otp_verify_v2) and otpCode (otp_verify)');
export const ZProxyOtpLoginSchema = z.object({
  verificationToken: str(8192),
  publicKey: str(130),
  invalidateExisting: z.boolean().optional(),
  organizationId: str(256).optional(),
  clientSignature: obj.optional(),
});
export const ZProxyOauthLoginSchema = z.object({ oidcToken: str(8192), publicKey: str(130), invalidateExisting: z.boolean().optional(), organizationId: str(256).optional() });
export const ZProxyOauth2AuthenticateSchema = z.object({
  provider: z.enum(['OAUTH2_PROVIDER_X', 'OAUTH2_PROVIDER_DISCORD'], { error: 'must be OAUTH2_PROVIDER_X or OAUTH2_PROVIDER_DISCORD' }),
  authCode: str(4096),
  redirectUri: str(2048),
  codeVerifier: str(128),
  nonce: str(256),
  clientId: str(512),
});
export const ZProxySignupSchema = z.object({
  userEmail: z.string().max(320).optional(),
  userPhoneNumber: z.string().max(32).optional(),
  userTag: z.string().max(256).optional(),
  userName: z.string().max(256).optional(),
  organizationName: z.string().max(256).optional(),
  verificationToken: z.string().max(8192).optional(),
  apiKeys: z.array(obj).max(10).default([]),
  authenticators: z.array(obj).max(10).default([]),
  oauthProviders: z.array(obj).max(10).default([]),
  wallet: obj.optional(),
  clientSignature: obj.optional(),
});
export type TProxySignup = z.output<typeof ZProxySignupSchema>;
export const ZProxyAccountSchema = z.object({
  filterType: str(64),
  filterValue: str(16_384),
  verificationToken: z.string().max(8192).optional(),
  oidcToken: z.string().max(8192).optional(),
});
