/**
 * create_session_profile — a named scope and lifetime for login sessions (issue 16 §4). The scope
 * is parsed before anything is written (a 400 naming `scope`; the grammar is in
 * `engine/session-scope.ts`); the profile is immutable afterwards, as Turnkey's are. A login that
 * names it (stamp_login, otp_login, oauth_login with `sessionProfileId`) gets a session key whose
 * every submission is checked against the scope.
 */
import { newId } from '@latchkey/crypto';
import { CREATE_SESSION_PROFILE_ACTIVITY, ZCreateSessionProfileIntentSchema, type TCreateSessionProfileIntent, type TCreateSessionProfileResult } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { parseSessionScope } from '../../engine/session-scope.js';

export const createSessionProfile: TActivityDefinition<TCreateSessionProfileIntent, TCreateSessionProfileResult> = {
  ...CREATE_SESSION_PROFILE_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateSessionProfileIntentSchema,
  policyParams: exposeParams({ sessionProfileName: 'session_profile_name', scope: 'scope' }),
  validate(p) {
    parseSessionScope(p.scope);
  },
  async handle(ctx, p) {
    const id = newId();
    await ctx.tx.sessionProfiles.create(
      {
        id,
        organizationId: ctx.organizationId,
        name: p.sessionProfileName,
        scope: p.scope,
        expirationSeconds: p.expirationSeconds === undefined ? null : Number(p.expirationSeconds),
        notes: p.notes ?? '',
      },
      ctx.now,
    );
    return { sessionProfileId: id };
  },
};
