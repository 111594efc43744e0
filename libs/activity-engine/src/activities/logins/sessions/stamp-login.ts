/**
 * stamp_login — the signer logs itself in: the client's fresh P-256 key becomes a session key of
 * the signing user (15 minutes by default) and the answer is the session JWT. Sent by
 * `loginWithPasskey` aimed at the parent organization with a sub-organization's passkey, so it
 * accepts logins through the parent; and with `X-Stamp-Attested`
 * (`loginWithOtp`/`loginWithOauth`), a key vouched for by a verification token (spent here, once)
 * or an OIDC token.
 */
import { ZStampLoginIntentSchema, type TSessionResult, type TStampLoginIntent, STAMP_LOGIN_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { spendAttestation } from '../../../engine/attestation.js';
import { issueLoginSession } from '../../../identity/issue-session.js';
import { exposeParams } from '@latchkey/policy';

export const stampLogin: TActivityDefinition<TStampLoginIntent, TSessionResult> = {
  ...STAMP_LOGIN_ACTIVITY,
  access: { loginViaParent: true, selfService: true, attested: true },
  onFailure: 'reject',
  params: ZStampLoginIntentSchema,
  policyParams: exposeParams({ sessionProfileId: 'session_profile_id' }, { session_profile_id: '' }),
  async handle(ctx, p) {
    // An attested verification token is spent here, with the session, and not at authentication:
    // a request refused before this point (policy, parameters, timestamp) leaves it usable.
    await spendAttestation(ctx.tx, ctx.principal, ctx.organizationId);
    return issueLoginSession(ctx, { userId: ctx.principal.userId, publicKey: p.publicKey, expirationSeconds: p.expirationSeconds, invalidateExisting: p.invalidateExisting, sessionProfileId: p.sessionProfileId });
  },
};
