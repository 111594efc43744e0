/**
 * delete_sub_organization — a sub-organization deletes itself (initiated by its own root user,
 * never by the parent). Keys are the users' funds: unless `deleteWithoutExport`, every wallet and
 * private key must have been exported first. The organization and every credential in it stop
 * working at once.
 */
import { AppError, ZDeleteSubOrganizationIntentSchema, type TDeleteSubOrganizationIntent, type TDeleteSubOrganizationResult, DELETE_SUB_ORGANIZATION_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const deleteSubOrganization: TActivityDefinition<TDeleteSubOrganizationIntent, TDeleteSubOrganizationResult> = {
  ...DELETE_SUB_ORGANIZATION_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteSubOrganizationIntentSchema,
  async handle(ctx, p) {
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    if (!org) throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${ctx.organizationId}`);
    if (!org.parentOrganizationId) throw new AppError('BAD_REQUEST', 'only a sub-organization can be deleted with delete_sub_organization');
    if (!p.deleteWithoutExport) {
      const [wallets, keys] = await Promise.all([ctx.tx.wallets.list(ctx.organizationId), ctx.tx.privateKeys.list(ctx.organizationId)]);
      const unexported = [...wallets.filter((w) => !w.exported).map((w) => w.id), ...keys.filter((k) => !k.exported).map((k) => k.id)];
      if (unexported.length > 0) {
        throw new AppError(
          'BAD_REQUEST',
          `the sub-organization holds ${unexported.length} wallet(s) or private key(s) never exported; export them first or set deleteWithoutExport`,
          { unexportedIds: unexported.slice(0, 100) },
        );
      }
    }
    await ctx.tx.organizations.softDelete(ctx.organizationId, ctx.now);
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    await ctx.tx.notifyChange('credential', ctx.organizationId);
    return { subOrganizationUuid: ctx.organizationId };
  },
};
