/**
 * create_read_write_session (V2) — a read-write session as a credential bundle: the server makes
 * the session key and encrypts it to the client's `targetPublicKey`. For the signing user, or
 * (root users only) another user of the organization named by `userId`. Policy: SESSION / CREATE;
 * implicitly allowed for oneself.
 */
import { AppError, ZCreateReadWriteSessionIntentSchema, type TCreateReadWriteSessionIntent, type TCreateReadWriteSessionResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { issueCredentialBundle } from './issue-session.js';

export const createReadWriteSession: TActivityDefinition<TCreateReadWriteSessionIntent, TCreateReadWriteSessionResult> = {
  path: 'create_read_write_session',
  versions: [{ type: 'ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION_V2', intentKey: 'createReadWriteSessionIntentV2', resultKey: 'createReadWriteSessionResultV2' }],
  resource: 'AUTH',
  action: 'CREATE',
  access: { loginViaParent: true, selfService: true },
  onFailure: 'reject',
  params: ZCreateReadWriteSessionIntentSchema,
  async handle(ctx, p) {
    const userId = p.userId ?? ctx.principal.userId;
    if (userId !== ctx.principal.userId) {
      const roots = await ctx.tx.organizations.rootQuorumMembers(ctx.organizationId);
      if (!roots.some((m) => m.userId === ctx.principal.userId)) {
        throw new AppError('REQUEST_NOT_AUTHORIZED', 'request not authorized: only root users may create a session for another user', { userId });
      }
    }
    const [org, user] = await Promise.all([ctx.tx.organizations.findById(ctx.organizationId), ctx.tx.users.findById(ctx.organizationId, userId)]);
    if (!org || !user) throw new AppError('NOT_FOUND', `user not found: ${userId}`, { userId });
    const { apiKeyId, credentialBundle } = await issueCredentialBundle(ctx, {
      userId,
      targetPublicKey: p.targetPublicKey,
      credentialType: 'CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256',
      apiKeyName: p.apiKeyName ?? `Read Write Session - ${ctx.now.toISOString()}`,
      expirationSeconds: p.expirationSeconds,
      invalidateExisting: p.invalidateExisting,
    });
    return { organizationId: org.id, organizationName: org.name, userId, username: user.userName, apiKeyId, credentialBundle };
  },
};
