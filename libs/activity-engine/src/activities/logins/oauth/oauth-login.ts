/**
 * OIDC logins. oauth_login: the token (verified against its issuer's JWKS) must carry `nonce =
 * hex(sha256(publicKey))`; the user holding a matching OAuth provider (iss, sub, aud) — in this
 * organization or its one sub-organization holding it — gets the client's key as a session key,
 * and the session JWT. oauth (older): the same proof with `targetPublicKey`, answered with a
 * credential bundle.
 */
import { ZOauthLoginIntentSchema, type TOauthLoginIntent, type TSessionResult, OAUTH_LOGIN_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueLoginSession } from '../../../identity/issue-session.js';
import { resolveUserByOidc } from '../../../engine/resolve-login-user.js';
import { verifiedToken } from './oauth-shared.js';
import { exposeParams } from '@latchkey/policy';

export const oauthLogin: TActivityDefinition<TOauthLoginIntent, TSessionResult> = {
  ...OAUTH_LOGIN_ACTIVITY,
  access: { parentMayAct: true },
  onFailure: 'reject',
  params: ZOauthLoginIntentSchema,
  policyParams: exposeParams({ sessionProfileId: 'session_profile_id' }, { session_profile_id: '' }),
  async handle(ctx, p) {
    const token = await verifiedToken(ctx, p.oidcToken, p.publicKey);
    const who = await resolveUserByOidc(ctx.tx, ctx.organizationId, token);
    return issueLoginSession({ ...ctx, organizationId: who.organizationId }, {
      userId: who.userId,
      publicKey: p.publicKey,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
      sessionProfileId: p.sessionProfileId,
    });
  },
};
