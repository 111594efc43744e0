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
import { ZUpdateOauth2CredentialIntentSchema, type TUpdateOauth2CredentialIntent, UPDATE_OAUTH2_CREDENTIAL_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { notFound } from '../../identity/oauth2-credential-rows.js';
import { sealedSecretFor } from './oauth2-credentials-shared.js';

export const updateOauth2Credential: TActivityDefinition<TUpdateOauth2CredentialIntent, { oauth2CredentialId: string }> = {
  ...UPDATE_OAUTH2_CREDENTIAL_ACTIVITY,
  params: ZUpdateOauth2CredentialIntentSchema,
  async handle(ctx, p) {
    const id = p.oauth2CredentialId;
    if (!(await ctx.tx.oauth2Credentials.findById(ctx.organizationId, id))) throw notFound(id);
    const sealedClientSecret = await sealedSecretFor(ctx, id, p.encryptedClientSecret);
    await ctx.tx.oauth2Credentials.update(ctx.organizationId, id, {
      provider: p.provider,
      clientId: p.clientId,
      encryptedClientSecret: p.encryptedClientSecret.toLowerCase(),
      sealedClientSecret,
      updatedAt: ctx.now,
    });
    return { oauth2CredentialId: id };
  },
};
