/**
 * delete_private_keys — removes private keys; a key never exported needs `deleteWithoutExport`
 * (the flag is ignored for exported keys). All or nothing.
 */
import { AppError, ZDeletePrivateKeysIntentSchema, type TDeletePrivateKeysIntent, type TDeletePrivateKeysResult, DELETE_PRIVATE_KEYS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deletePrivateKeys: TActivityDefinition<TDeletePrivateKeysIntent, TDeletePrivateKeysResult> = {
  ...DELETE_PRIVATE_KEYS_ACTIVITY,
  params: ZDeletePrivateKeysIntentSchema,
  async handle(ctx, p) {
    const ids = [...new Set(p.privateKeyIds)];
    const keys = await ctx.tx.privateKeys.findByIds(ctx.organizationId, ids);
    const missing = ids.filter((id) => !keys.some((k) => k.id === id));
    if (missing.length) throw new AppError('NOT_FOUND', `private keys not found: ${missing.join(', ')}`, { privateKeyIds: missing });
    const unexported = keys.filter((k) => !k.exported).map((k) => k.id);
    if (unexported.length && !p.deleteWithoutExport) {
      throw new AppError('BAD_REQUEST', `private keys were never exported, so deleting them would lose them: ${unexported.join(', ')}; export them first or set deleteWithoutExport`, {
        privateKeyIds: unexported,
      });
    }
    await ctx.tx.privateKeys.softDelete(ctx.organizationId, ids, ctx.now);
    // Signing caches its key lookups: they must forget these keys.
    await ctx.tx.notifyChange('signer', ctx.organizationId);
    return { privateKeyIds: ids };
  },
};
