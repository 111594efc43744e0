/**
 * OIDC logins. oauth_login: the token (verified against its issuer's JWKS) must carry `nonce =
 * hex(sha256(publicKey))`; the user holding a matching OAuth provider (iss, sub, aud) — in this
 * organization or its one sub-organization holding it — gets the client's key as a session key,
 * and the session JWT. oauth (older): the same proof with `targetPublicKey`, answered with a
 * credential bundle.
 */
import { ZOauthIntentSchema, type TOauthIntent, OAUTH_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueCredentialBundle } from '../../../identity/issue-session.js';
import { resolveUserByOidc } from '../../../engine/resolve-login-user.js';
import { verifiedToken } from './oauth-shared.js';

export const oauth: TActivityDefinition<TOauthIntent, { userId: string; apiKeyId: string; credentialBundle: string }> = {
  ...OAUTH_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZOauthIntentSchema,
  async handle(ctx, p) {
    const token = await verifiedToken(ctx, p.oidcToken, p.targetPublicKey);
    const who = await resolveUserByOidc(ctx.tx, ctx.organizationId, token);
    const bundle = await issueCredentialBundle({ ...ctx, organizationId: who.organizationId }, {
      userId: who.userId,
      targetPublicKey: p.targetPublicKey,
      credentialType: 'CREDENTIAL_TYPE_OAUTH_KEY_P256',
      apiKeyName: p.apiKeyName ?? `OAuth - ${ctx.now.getTime()}`,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
    });
    return { userId: who.userId, ...bundle };
  },
};
