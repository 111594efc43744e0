/**
 * An organization's OAuth 2.0 clients at X or Discord: create / update / delete_oauth2_credential,
 * and the queries get_oauth2_credential and list_oauth2_credentials.
 *
 * The client secret arrives encrypted to the server's TLS-fetcher key (`@turnkey/crypto`
 * `encryptOauth2ClientSecret(secret, tlsFetcherPublicKey)`, a QOS envelope). It is opened here
 * once, checked, and re-sealed by the key vault bound to the credential's id; the client's
 * envelope is kept too, because get/list return it as Turnkey does. The secret itself is never
 * stored, logged or returned.
 */
import { ZDeleteOauth2CredentialIntentSchema, type TDeleteOauth2CredentialIntent, DELETE_OAUTH2_CREDENTIAL_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { notFound } from '../../identity/oauth2-credential-rows.js';

export const deleteOauth2Credential: TActivityDefinition<TDeleteOauth2CredentialIntent, { oauth2CredentialId: string }> = {
  ...DELETE_OAUTH2_CREDENTIAL_ACTIVITY,
  params: ZDeleteOauth2CredentialIntentSchema,
  async handle(ctx, p) {
    if (!(await ctx.tx.oauth2Credentials.delete(ctx.organizationId, p.oauth2CredentialId))) throw notFound(p.oauth2CredentialId);
    return { oauth2CredentialId: p.oauth2CredentialId };
  },
};
