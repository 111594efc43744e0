/** What the MFA policy kinds share: the user they are for must exist in the organization. */
import { AppError } from '@latchkey/domain';
import type { TActivityContext } from '../../engine/activity-definition.js';

/** @throws AppError NOT_FOUND naming `userId` */
export async function assertMfaUser(ctx: TActivityContext, userId: string): Promise<void> {
  const user = await ctx.tx.users.findById(ctx.organizationId, userId);
  if (!user) throw new AppError('NOT_FOUND', `user not found: ${userId}`, { field: 'userId' });
}
