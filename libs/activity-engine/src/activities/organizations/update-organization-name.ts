/**
 * update_organization_name — renames the organization the request targets. Only the root quorum
 * decides it (the docs list it with update_root_quorum among the activities no policy governs).
 */
import {
  AppError,
  UPDATE_ORGANIZATION_NAME_ACTIVITY,
  ZUpdateOrganizationNameIntentSchema,
  type TUpdateOrganizationNameIntent,
  type TUpdateOrganizationNameResult,
} from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';

export const updateOrganizationName: TActivityDefinition<TUpdateOrganizationNameIntent, TUpdateOrganizationNameResult> = {
  ...UPDATE_ORGANIZATION_NAME_ACTIVITY,
  params: ZUpdateOrganizationNameIntentSchema,
  async handle(ctx, p) {
    if (!(await ctx.tx.organizations.rename(ctx.organizationId, p.organizationName, ctx.now))) {
      throw new AppError('ORGANIZATION_NOT_FOUND', `organization not found: ${ctx.organizationId}`);
    }
    await ctx.tx.notifyChange('organization', ctx.organizationId);
    return { organizationId: ctx.organizationId, organizationName: p.organizationName };
  },
};
