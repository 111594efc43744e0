/**
 * Wire schemas of the login flows (protocol notes §8): init_otp (V3), verify_otp (V2 and the
 * plain-code V1), otp_login (V2), init_otp_auth (V3) + otp_auth, oauth_login, oauth, email_auth
 * (V3), init_user_email_recovery (V2) and recover_user.
 */
import { z } from 'zod';
import { emailAddress, isEmailAddress } from '../email-address.js';
import { ZIdentifierSchema } from '../common.js';
import { ZAuthenticatorParamsV2Schema, ZClientSignatureSchema, ZExpirationSecondsSchema } from './credentials.js';
import { ZCompressedP256HexSchema, ZP256PublicKeyHexSchema } from './organizations.js';
import { defineActivityWire } from '../activity.js';

export const OTP_TYPES = ['OTP_TYPE_EMAIL', 'OTP_TYPE_SMS'] as const;
export type TOtpType = (typeof OTP_TYPES)[number];

/** Default and bounds of OTP codes and their lifetime (notes §8). */
export const OTP_DEFAULTS = { length: 9, minLength: 6, maxLength: 20, expirationSeconds: 300, maxExpirationSeconds: 600 } as const;
/** Verification tokens: 1 hour by default, 1 day at most. */
export const VERIFICATION_TOKEN_DEFAULTS = { expirationSeconds: 3600, maxExpirationSeconds: 86_400 } as const;

const optionalText = (max: number) => z.string().max(max, `must be at most ${max} characters`).optional();

export const ZEmailCustomizationSchema = z.object({
  appName: optionalText(256),
  logoUrl: optionalText(2048),
  magicLinkTemplate: optionalText(2048),
  templateVariables: optionalText(8192),
  templateId: optionalText(256),
});
export type TEmailCustomization = z.infer<typeof ZEmailCustomizationSchema>;
export const ZSmsCustomizationSchema = z.object({ template: optionalText(1024) });
export type TSmsCustomization = z.infer<typeof ZSmsCustomizationSchema>;

const sender = {
  sendFromEmailAddress: emailAddress('must be an e-mail address').optional(),
  sendFromEmailSenderName: optionalText(256),
  replyToEmailAddress: emailAddress('must be an e-mail address').optional(),
};

/** init_otp V3 and init_otp_auth V3 share their parameters. */
export const ZInitOtpIntentSchema = z
  .object({
    otpType: z.enum(OTP_TYPES, { error: `must be one of ${OTP_TYPES.join(', ')}` }),
    contact: z.string().min(1, 'must not be empty').max(320, 'must be at most 320 characters'),
    appName: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
    otpLength: z
      .number()
      .int('must be an integer')
      .min(OTP_DEFAULTS.minLength, `must be at least ${OTP_DEFAULTS.minLength}`)
      .max(OTP_DEFAULTS.maxLength, `must be at most ${OTP_DEFAULTS.maxLength}`)
      .default(OTP_DEFAULTS.length),
    alphanumeric: z.boolean().default(true),
    expirationSeconds: ZExpirationSecondsSchema.refine((s) => Number(s) <= OTP_DEFAULTS.maxExpirationSeconds, `must be at most ${OTP_DEFAULTS.maxExpirationSeconds}`).optional(),
    emailCustomization: ZEmailCustomizationSchema.optional(),
    smsCustomization: ZSmsCustomizationSchema.optional(),
    userIdentifier: optionalText(256),
    ...sender,
  })
  .superRefine((p, ctx) => {
    const ok = p.otpType === 'OTP_TYPE_EMAIL' ? isEmailAddress(p.contact) : /^\+[1-9][0-9]{6,14}$/.test(p.contact);
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        path: ['contact'],
        message: p.otpType === 'OTP_TYPE_EMAIL' ? 'must be an e-mail address for OTP_TYPE_EMAIL' : 'must be an E.164 phone number (such as +14155550100) for OTP_TYPE_SMS',
      });
    }
  });
export type TInitOtpIntent = z.output<typeof ZInitOtpIntentSchema>;

export const ZVerifyOtpIntentSchema = z
  .object({
    otpId: ZIdentifierSchema,
    /** V2: HPKE of {"otp_code","public_key"} to the init_otp target (notes §5). */
    encryptedOtpBundle: z.string().min(1).max(4096).optional(),
    /** V1: the plain code, optionally with the public key to bind to the token. */
    otpCode: z.string().min(1).max(64).optional(),
    publicKey: ZCompressedP256HexSchema.optional(),
    expirationSeconds: ZExpirationSecondsSchema.refine(
      (s) => Number(s) <= VERIFICATION_TOKEN_DEFAULTS.maxExpirationSeconds,
      `must be at most ${VERIFICATION_TOKEN_DEFAULTS.maxExpirationSeconds}`,
    ).optional(),
  })
  .refine((p) => (p.encryptedOtpBundle === undefined) !== (p.otpCode === undefined), 'give exactly one of encryptedOtpBundle (V2) and otpCode (V1)');
export type TVerifyOtpIntent = z.output<typeof ZVerifyOtpIntentSchema>;

const token = z.string().min(1, 'must not be empty').max(8192, 'must be at most 8192 characters');
const sessionOptions = {
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  invalidateExisting: z.boolean().default(false),
  sessionProfileId: ZIdentifierSchema.optional(),
};

export const ZOtpLoginIntentSchema = z.object({
  verificationToken: token,
  publicKey: ZCompressedP256HexSchema,
  clientSignature: ZClientSignatureSchema.optional(),
  ...sessionOptions,
});
export type TOtpLoginIntent = z.output<typeof ZOtpLoginIntentSchema>;

export const ZOtpAuthIntentSchema = z.object({
  otpId: ZIdentifierSchema,
  otpCode: z.string().min(1).max(64),
  targetPublicKey: ZP256PublicKeyHexSchema,
  apiKeyName: z.string().min(1).max(256).optional(),
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  invalidateExisting: z.boolean().default(false),
});
export type TOtpAuthIntent = z.output<typeof ZOtpAuthIntentSchema>;

export const ZOauthLoginIntentSchema = z.object({ oidcToken: token, publicKey: ZCompressedP256HexSchema, ...sessionOptions });
export type TOauthLoginIntent = z.output<typeof ZOauthLoginIntentSchema>;

export const ZOauthIntentSchema = z.object({
  oidcToken: token,
  targetPublicKey: ZP256PublicKeyHexSchema,
  apiKeyName: z.string().min(1).max(256).optional(),
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  invalidateExisting: z.boolean().default(false),
});
export type TOauthIntent = z.output<typeof ZOauthIntentSchema>;

export const ZEmailAuthIntentSchema = z.object({
  email: emailAddress('must be an e-mail address'),
  targetPublicKey: ZP256PublicKeyHexSchema,
  apiKeyName: z.string().min(1).max(256).optional(),
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  emailCustomization: ZEmailCustomizationSchema.default({}),
  invalidateExisting: z.boolean().default(false),
  ...sender,
});
export type TEmailAuthIntent = z.output<typeof ZEmailAuthIntentSchema>;

export const ZInitUserEmailRecoveryIntentSchema = z.object({
  email: emailAddress('must be an e-mail address'),
  targetPublicKey: ZP256PublicKeyHexSchema,
  expirationSeconds: ZExpirationSecondsSchema.optional(),
  emailCustomization: ZEmailCustomizationSchema.default({}),
  ...sender,
});
export type TInitUserEmailRecoveryIntent = z.output<typeof ZInitUserEmailRecoveryIntentSchema>;

export const ZRecoverUserIntentSchema = z.object({ authenticator: ZAuthenticatorParamsV2Schema, userId: ZIdentifierSchema });
export type TRecoverUserIntent = z.output<typeof ZRecoverUserIntentSchema>;

/** Wire names of `email_auth`: every accepted `type`, with its intent and result keys. */
export const EMAIL_AUTH_ACTIVITY = defineActivityWire('email_auth', [{ type: 'ACTIVITY_TYPE_EMAIL_AUTH_V3', intentKey: 'emailAuthIntentV3', resultKey: 'emailAuthResult' }]);

/** Wire names of `oauth_login`: every accepted `type`, with its intent and result keys. */
export const OAUTH_LOGIN_ACTIVITY = defineActivityWire('oauth_login', [{ type: 'ACTIVITY_TYPE_OAUTH_LOGIN', intentKey: 'oauthLoginIntent', resultKey: 'oauthLoginResult' }]);

/** Wire names of `oauth`: every accepted `type`, with its intent and result keys. */
export const OAUTH_ACTIVITY = defineActivityWire('oauth', [{ type: 'ACTIVITY_TYPE_OAUTH', intentKey: 'oauthIntent', resultKey: 'oauthResult' }]);

/** Wire names of `init_otp_auth`: every accepted `type`, with its intent and result keys. */
export const INIT_OTP_AUTH_ACTIVITY = defineActivityWire('init_otp_auth', [{ type: 'ACTIVITY_TYPE_INIT_OTP_AUTH_V3', intentKey: 'initOtpAuthIntentV3', resultKey: 'initOtpAuthResultV2' }]);

/** Wire names of `init_otp`: every accepted `type`, with its intent and result keys. */
export const INIT_OTP_ACTIVITY = defineActivityWire('init_otp', [{ type: 'ACTIVITY_TYPE_INIT_OTP_V3', intentKey: 'initOtpIntentV3', resultKey: 'initOtpResultV2' }]);

/** Wire names of `otp_auth`: every accepted `type`, with its intent and result keys. */
export const OTP_AUTH_ACTIVITY = defineActivityWire('otp_auth', [{ type: 'ACTIVITY_TYPE_OTP_AUTH', intentKey: 'otpAuthIntent', resultKey: 'otpAuthResult' }]);

/** Wire names of `otp_login`: every accepted `type`, with its intent and result keys. */
export const OTP_LOGIN_ACTIVITY = defineActivityWire('otp_login', [
    { type: 'ACTIVITY_TYPE_OTP_LOGIN_V2', intentKey: 'otpLoginIntentV2', resultKey: 'otpLoginResult' },
    { type: 'ACTIVITY_TYPE_OTP_LOGIN', intentKey: 'otpLoginIntent', resultKey: 'otpLoginResult' },
  ]);

/** Wire names of `verify_otp`: every accepted `type`, with its intent and result keys. */
export const VERIFY_OTP_ACTIVITY = defineActivityWire('verify_otp', [
    { type: 'ACTIVITY_TYPE_VERIFY_OTP_V2', intentKey: 'verifyOtpIntentV2', resultKey: 'verifyOtpResult' },
    { type: 'ACTIVITY_TYPE_VERIFY_OTP', intentKey: 'verifyOtpIntent', resultKey: 'verifyOtpResult' },
  ]);

/** Wire names of `init_user_email_recovery`: every accepted `type`, with its intent and result keys. */
export const INIT_USER_EMAIL_RECOVERY_ACTIVITY = defineActivityWire('init_user_email_recovery', [{ type: 'ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2', intentKey: 'initUserEmailRecoveryIntentV2', resultKey: 'initUserEmailRecoveryResult' }]);

/** Wire names of `recover_user`: every accepted `type`, with its intent and result keys. */
export const RECOVER_USER_ACTIVITY = defineActivityWire('recover_user', [{ type: 'ACTIVITY_TYPE_RECOVER_USER', intentKey: 'recoverUserIntent', resultKey: 'recoverUserResult' }]);
