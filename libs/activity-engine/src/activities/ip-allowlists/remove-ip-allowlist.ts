/**
 * remove_ip_allowlist — deletes the organization-level IP allowlist (`publicKey` absent) or one
 * API key's. Removing a list never locks anyone out, so nothing is checked but that it exists.
 */
import { AppError, REMOVE_IP_ALLOWLIST_ACTIVITY, ZRemoveIpAllowlistIntentSchema, type TRemoveIpAllowlistIntent } from '@latchkey/domain';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const removeIpAllowlist: TActivityDefinition<TRemoveIpAllowlistIntent, Record<string, never>> = {
  ...REMOVE_IP_ALLOWLIST_ACTIVITY,
  onFailure: 'reject',
  params: ZRemoveIpAllowlistIntentSchema,
  policyParams: exposeParams({ publicKey: 'public_key' }),
  async handle(ctx, p) {
    const key = p.publicKey?.toLowerCase();
    if (!(await ctx.tx.ipAllowlists.remove(ctx.organizationId, key))) {
      throw new AppError('NOT_FOUND', key === undefined ? `organization ${ctx.organizationId} has no organization-level IP allowlist` : `no IP allowlist for API key ${key} in organization ${ctx.organizationId}`, {
        field: 'publicKey',
      });
    }
    await ctx.tx.notifyChange('ip-allowlist', ctx.organizationId);
    return {};
  },
};
