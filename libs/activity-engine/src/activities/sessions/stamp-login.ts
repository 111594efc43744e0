/**
 * stamp_login — the signer logs itself in: the client's fresh P-256 key becomes a session key of
 * the signing user (15 minutes by default) and the answer is the session JWT. Sent by
 * `loginWithPasskey` aimed at the parent organization with a sub-organization's passkey, so it
 * accepts logins through the parent; and with `X-Stamp-Attested` (`loginWithOtp`/`loginWithOauth`),
 * a key vouched for by a verification token or an OIDC token. Policy: SESSION / CREATE,
 * implicitly allowed for oneself.
 */
import { ZStampLoginIntentSchema, type TSessionResult, type TStampLoginIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { issueLoginSession } from './issue-session.js';

export const stampLogin: TActivityDefinition<TStampLoginIntent, TSessionResult> = {
  path: 'stamp_login',
  versions: [{ type: 'ACTIVITY_TYPE_STAMP_LOGIN', intentKey: 'stampLoginIntent', resultKey: 'stampLoginResult' }],
  resource: 'AUTH',
  action: 'CREATE',
  access: { loginViaParent: true, selfService: true, attested: true },
  onFailure: 'reject',
  params: ZStampLoginIntentSchema,
  handle(ctx, p) {
    return issueLoginSession(ctx, { userId: ctx.principal.userId, publicKey: p.publicKey, expirationSeconds: p.expirationSeconds, invalidateExisting: p.invalidateExisting });
  },
};
