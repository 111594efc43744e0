/**
 * Wire schemas of OAuth 2.0 logins through providers that are not OpenID providers (X, Discord):
 * the organization's client credentials (create / update / delete_oauth2_credential,
 * get_oauth2_credential, list_oauth2_credentials) and oauth2_authenticate, which exchanges an
 * authorization code and answers with an OIDC token Latchkey issues itself (protocol notes §8).
 */
import { z } from 'zod';
import { ZIdentifierSchema, ZTimestampSchema } from '../common.js';
import { ZP256PublicKeyHexSchema } from './organizations.js';
import { defineActivityWire } from '../activity.js';

export const OAUTH2_PROVIDERS = ['OAUTH2_PROVIDER_X', 'OAUTH2_PROVIDER_DISCORD'] as const;
export type TOauth2Provider = (typeof OAUTH2_PROVIDERS)[number];
export const ZOauth2ProviderSchema = z.enum(OAUTH2_PROVIDERS, { error: `must be one of ${OAUTH2_PROVIDERS.join(', ')}` });

const clientId = z.string().min(1, 'must not be empty').max(512, 'must be at most 512 characters');
/**
 * Hex of the QOS envelope `@turnkey/crypto` `encryptOauth2ClientSecret` makes (97 bytes of
 * framing plus the secret): bounded so a secret of up to ~2 KiB fits.
 */
const encryptedClientSecret = z
  .string()
  .regex(/^([0-9a-fA-F]{2})+$/, 'must be hex (the output of encryptOauth2ClientSecret)')
  .min(2 * 98, 'is too short to be an encrypted client secret')
  .max(2 * 4096, 'must be at most 8192 hex characters');

export const ZCreateOauth2CredentialIntentSchema = z.object({ provider: ZOauth2ProviderSchema, clientId, encryptedClientSecret });
export type TCreateOauth2CredentialIntent = z.output<typeof ZCreateOauth2CredentialIntentSchema>;

export const ZUpdateOauth2CredentialIntentSchema = z.object({ oauth2CredentialId: ZIdentifierSchema, provider: ZOauth2ProviderSchema, clientId, encryptedClientSecret });
export type TUpdateOauth2CredentialIntent = z.output<typeof ZUpdateOauth2CredentialIntentSchema>;

export const ZDeleteOauth2CredentialIntentSchema = z.object({ oauth2CredentialId: ZIdentifierSchema });
export type TDeleteOauth2CredentialIntent = z.output<typeof ZDeleteOauth2CredentialIntentSchema>;

export const ZOauth2AuthenticateIntentSchema = z.object({
  oauth2CredentialId: ZIdentifierSchema,
  authCode: z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters'),
  redirectUri: z.string().max(2048, 'must be at most 2048 characters').url('must be an absolute URI'),
  /**
   * RFC 7636 asks for 43–128 characters; shorter ones are let through (X's own examples use the
   * `plain` method with short verifiers) and left for the provider to judge.
   */
  codeVerifier: z.string().regex(/^[A-Za-z0-9\-._~]{1,128}$/, 'must be 1 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)'),
  /** sha256 hex of the session public key for oauth_login; copied into the token as is. */
  nonce: z.string().min(1, 'must not be empty').max(256, 'must be at most 256 characters'),
  bearerTokenTargetPublicKey: ZP256PublicKeyHexSchema.optional(),
});
export type TOauth2AuthenticateIntent = z.output<typeof ZOauth2AuthenticateIntentSchema>;

/** `v1Oauth2Credential` as get/list_oauth2_credential(s) return it. */
export const ZOauth2CredentialSchema = z.object({
  oauth2CredentialId: ZIdentifierSchema,
  organizationId: ZIdentifierSchema,
  provider: ZOauth2ProviderSchema,
  clientId: z.string(),
  /** The envelope as the client sent it (encrypted to the TLS-fetcher key), never the secret. */
  encryptedClientSecret: z.string(),
  createdAt: ZTimestampSchema,
  updatedAt: ZTimestampSchema,
});
export type TOauth2Credential = z.infer<typeof ZOauth2CredentialSchema>;

export const ZGetOauth2CredentialRequestSchema = z.object({ organizationId: ZIdentifierSchema, oauth2CredentialId: ZIdentifierSchema });
export type TGetOauth2CredentialRequest = z.output<typeof ZGetOauth2CredentialRequestSchema>;
export const ZListOauth2CredentialsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListOauth2CredentialsRequest = z.output<typeof ZListOauth2CredentialsRequestSchema>;

/** Wire names of `create_oauth2_credential`: every accepted `type`, with its intent and result keys. */
export const CREATE_OAUTH2_CREDENTIAL_ACTIVITY = defineActivityWire('create_oauth2_credential', [{ type: 'ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL', intentKey: 'createOauth2CredentialIntent', resultKey: 'createOauth2CredentialResult' }]);

/** Wire names of `delete_oauth2_credential`: every accepted `type`, with its intent and result keys. */
export const DELETE_OAUTH2_CREDENTIAL_ACTIVITY = defineActivityWire('delete_oauth2_credential', [{ type: 'ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL', intentKey: 'deleteOauth2CredentialIntent', resultKey: 'deleteOauth2CredentialResult' }]);

/** Wire names of `oauth2_authenticate`: every accepted `type`, with its intent and result keys. */
export const OAUTH2_AUTHENTICATE_ACTIVITY = defineActivityWire('oauth2_authenticate', [{ type: 'ACTIVITY_TYPE_OAUTH2_AUTHENTICATE', intentKey: 'oauth2AuthenticateIntent', resultKey: 'oauth2AuthenticateResult' }]);

/** Wire names of `update_oauth2_credential`: every accepted `type`, with its intent and result keys. */
export const UPDATE_OAUTH2_CREDENTIAL_ACTIVITY = defineActivityWire('update_oauth2_credential', [{ type: 'ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL', intentKey: 'updateOauth2CredentialIntent', resultKey: 'updateOauth2CredentialResult' }]);
