/**
 * OIDC logins. oauth_login: the token (verified against its issuer's JWKS) must carry `nonce =
 * hex(sha256(publicKey))`; the user holding a matching OAuth provider (iss, sub, aud) — in this
 * organization or its one sub-organization holding it — gets the client's key as a session key,
 * and the session JWT. oauth (older): the same proof with `targetPublicKey`, answered with a
 * credential bundle.
 */
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../../engine/activity-definition.js';
import type { TVerifiedIdToken } from '../../../engine/services.js';
import { oidcNonceForPublicKey } from '@latchkey/crypto';

export async function verifiedToken(ctx: TActivityContext, oidcToken: string, publicKey: string): Promise<TVerifiedIdToken> {
  try {
    return await ctx.services.oidc.verify(oidcToken, { expectedNonce: oidcNonceForPublicKey(publicKey) });
  } catch (e) {
    throw new AppError('BAD_REQUEST', `oidcToken: ${(e as Error).message}`, { field: 'oidcToken' });
  }
}
