/**
 * create_read_write_session (V2) — a read-write session as a credential bundle: the server makes
 * the session key and encrypts it to the client's `targetPublicKey`. For the signing user, or
 * another user of the organization named by `userId`.
 */
import { AppError, ZCreateReadWriteSessionIntentSchema, type TCreateReadWriteSessionIntent, type TCreateReadWriteSessionResult, CREATE_READ_WRITE_SESSION_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../../engine/activity-definition.js';
import { issueCredentialBundle } from '../../../identity/issue-session.js';

export const createReadWriteSession: TActivityDefinition<TCreateReadWriteSessionIntent, TCreateReadWriteSessionResult> = {
  ...CREATE_READ_WRITE_SESSION_ACTIVITY,
  access: { loginViaParent: true, selfService: true },
  onFailure: 'reject',
  params: ZCreateReadWriteSessionIntentSchema,
  async handle(ctx, p) {
    const userId = p.userId ?? ctx.principal.userId;
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
