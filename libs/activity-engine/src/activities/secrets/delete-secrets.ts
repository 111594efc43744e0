/**
 * delete_secrets — deletes 1..32 distinct secrets, all of which must belong to the organization:
 * one unknown id is a 404 naming it and nothing is deleted. The sealed ciphertext goes with the
 * row; the result lists the ids in the order requested.
 */
import { AppError, DELETE_SECRETS_ACTIVITY, ZDeleteSecretsIntentSchema, type TDeleteSecretsIntent, type TDeleteSecretsResult } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteSecrets: TActivityDefinition<TDeleteSecretsIntent, TDeleteSecretsResult> = {
  ...DELETE_SECRETS_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteSecretsIntentSchema,
  async handle(ctx, p) {
    const found = new Set((await ctx.tx.secrets.findMany(ctx.organizationId, p.secretIds)).map((s) => s.id));
    const missing = p.secretIds.findIndex((id) => !found.has(id));
    if (missing >= 0) {
      const secretId = p.secretIds[missing]!;
      throw new AppError('NOT_FOUND', `secretIds.${missing}: secret not found: ${secretId}`, { field: `secretIds.${missing}`, secretId });
    }
    const deleted = await ctx.tx.secrets.deleteMany(ctx.organizationId, p.secretIds);
    if (deleted !== p.secretIds.length) throw new AppError('CONFLICT', 'some of these secrets were just deleted by another request', { secretIds: p.secretIds });
    return { secretIds: p.secretIds };
  },
};
