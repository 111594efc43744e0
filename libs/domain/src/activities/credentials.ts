/**
 * Credential parameters shared by the activities that create users or root users: API keys
 * (v1ApiKeyParamsV2), WebAuthn authenticators (v1AuthenticatorParamsV2), OAuth providers
 * (v1OauthProviderParams / V2) and the client signature of the OTP flows (v1ClientSignature).
 */
import { z } from 'zod';
import { ZApiKeyCurveSchema, ZAuthenticatorTransportSchema } from '../enums.js';
import { defineActivityWire } from '../activity.js';

const name = z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const hex = z.string().regex(/^[0-9a-fA-F]+$/, 'must be hex').max(256, 'must be at most 256 characters');
const base64url = z
  .string()
  .min(1, 'must not be empty')
  .max(16_384, 'must be at most 16384 characters')
  .regex(/^[A-Za-z0-9_-]+={0,2}$/, 'must be base64url');

/** A lifetime in seconds written as a decimal string (uint64 on the wire). */
export const ZExpirationSecondsSchema = z
  .string()
  .regex(/^[0-9]{1,10}$/, 'must be a decimal number of seconds')
  .refine((s) => Number(s) >= 1, 'must be at least 1 second');

export const ZCredentialApiKeyParamsSchema = z.object({
  apiKeyName: name,
  publicKey: hex,
  curveType: ZApiKeyCurveSchema,
  expirationSeconds: ZExpirationSecondsSchema.optional(),
});
export type TCredentialApiKeyParams = z.infer<typeof ZCredentialApiKeyParamsSchema>;

export const ZAttestationSchema = z.object({
  credentialId: base64url,
  clientDataJson: base64url,
  attestationObject: base64url,
  transports: z.array(ZAuthenticatorTransportSchema).max(8).default([]),
});
export type TAttestation = z.output<typeof ZAttestationSchema>;

export const ZAuthenticatorParamsV2Schema = z.object({
  authenticatorName: name,
  challenge: base64url,
  attestation: ZAttestationSchema,
});
export type TAuthenticatorParamsV2 = z.output<typeof ZAuthenticatorParamsV2Schema>;

export const ZOidcClaimsSchema = z.object({ iss: z.string().min(1).max(1024), sub: z.string().min(1).max(1024), aud: z.string().min(1).max(1024) });
export type TOidcClaims = z.infer<typeof ZOidcClaimsSchema>;

const oidcToken = z.string().min(1, 'must not be empty').max(16_384, 'must be at most 16384 characters');

/** V1 providers carry a token; V2 a token or the claims it would prove (iss, sub, aud). */
export const ZOauthProviderParamsV2Schema = z
  .object({ providerName: name, oidcToken: oidcToken.optional(), oidcClaims: ZOidcClaimsSchema.optional() })
  .refine((p) => (p.oidcToken === undefined) !== (p.oidcClaims === undefined), 'must give exactly one of oidcToken and oidcClaims');
export type TOauthProviderParamsV2 = z.output<typeof ZOauthProviderParamsV2Schema>;

export const ZOauthProviderParamsSchema = z.object({ providerName: name, oidcToken });

export const ZClientSignatureSchema = z.object({
  publicKey: hex,
  scheme: z.enum(['CLIENT_SIGNATURE_SCHEME_API_P256']),
  message: z.string().min(1).max(65_536),
  signature: hex,
});
export type TClientSignature = z.infer<typeof ZClientSignatureSchema>;

// ---------------------------------------------------------------------------------------------
// Passkeys and OAuth providers of a user (create/delete activities, get queries)
// ---------------------------------------------------------------------------------------------

const ids = (what: string) => z.array(z.string().min(1).max(256)).min(1, `must list at least one ${what}`).max(100, `must list at most 100 ${what}s`);
const userId = z.string().min(1, 'must not be empty').max(256);

export const ZCreateAuthenticatorsIntentSchema = z.object({ userId, authenticators: z.array(ZAuthenticatorParamsV2Schema).min(1, 'must hold at least one authenticator').max(10) });
export type TCreateAuthenticatorsIntent = z.output<typeof ZCreateAuthenticatorsIntentSchema>;
export const ZDeleteAuthenticatorsIntentSchema = z.object({ userId, authenticatorIds: ids('authenticator id') });
export type TDeleteAuthenticatorsIntent = z.output<typeof ZDeleteAuthenticatorsIntentSchema>;
export const ZGetAuthenticatorsRequestSchema = z.object({ organizationId: z.string().min(1).max(256), userId });
export const ZGetAuthenticatorRequestSchema = z.object({ organizationId: z.string().min(1).max(256), authenticatorId: z.string().min(1).max(256) });

export const ZCreateOauthProvidersIntentSchema = z.object({ userId, oauthProviders: z.array(ZOauthProviderParamsV2Schema).min(1, 'must hold at least one provider').max(10) });
export type TCreateOauthProvidersIntent = z.output<typeof ZCreateOauthProvidersIntentSchema>;
export const ZDeleteOauthProvidersIntentSchema = z.object({ userId, providerIds: ids('provider id') });
export type TDeleteOauthProvidersIntent = z.output<typeof ZDeleteOauthProvidersIntentSchema>;
export const ZGetOauthProvidersRequestSchema = z.object({ organizationId: z.string().min(1).max(256), userId: userId.optional() });

/** Wire names of `create_authenticators`: every accepted `type`, with its intent and result keys. */
export const CREATE_AUTHENTICATORS_ACTIVITY = defineActivityWire('create_authenticators', [{ type: 'ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2', intentKey: 'createAuthenticatorsIntentV2', resultKey: 'createAuthenticatorsResult' }]);

/** Wire names of `create_oauth_providers`: every accepted `type`, with its intent and result keys. */
export const CREATE_OAUTH_PROVIDERS_ACTIVITY = defineActivityWire('create_oauth_providers', [
    { type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS_V2', intentKey: 'createOauthProvidersIntentV2', resultKey: 'createOauthProvidersResultV2' },
    { type: 'ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS', intentKey: 'createOauthProvidersIntent', resultKey: 'createOauthProvidersResult' },
  ]);

/** Wire names of `delete_authenticators`: every accepted `type`, with its intent and result keys. */
export const DELETE_AUTHENTICATORS_ACTIVITY = defineActivityWire('delete_authenticators', [{ type: 'ACTIVITY_TYPE_DELETE_AUTHENTICATORS', intentKey: 'deleteAuthenticatorsIntent', resultKey: 'deleteAuthenticatorsResult' }]);

/** Wire names of `delete_oauth_providers`: every accepted `type`, with its intent and result keys. */
export const DELETE_OAUTH_PROVIDERS_ACTIVITY = defineActivityWire('delete_oauth_providers', [{ type: 'ACTIVITY_TYPE_DELETE_OAUTH_PROVIDERS', intentKey: 'deleteOauthProvidersIntent', resultKey: 'deleteOauthProvidersResult' }]);
