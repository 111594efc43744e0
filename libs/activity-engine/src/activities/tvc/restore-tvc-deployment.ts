/**
 * restore_tvc_deployment — brings a deleted deployment back: APPROVED if its approvals had met the
 * threshold (they are signatures over its unchanged manifest, so they still hold), else CREATED.
 * A deployment of a deleted app cannot be restored: the app is gone with its deployments.
 */
import { AppError, RESTORE_TVC_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema, type TTvcDeploymentIdIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deploymentStateOf, nextDeploymentState } from './deployment-state.js';
import { lockedDeploymentWithApp } from './tvc-shared.js';

export const restoreTvcDeployment: TActivityDefinition<TTvcDeploymentIdIntent, { deploymentId: string }> = {
  ...RESTORE_TVC_DEPLOYMENT_ACTIVITY,
  onFailure: 'reject',
  params: ZTvcDeploymentIdIntentSchema,
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    const { deployment, app } = await lockedDeploymentWithApp(tvc, ctx.organizationId, p.deploymentId);
    if (app.deletedAt) throw new AppError('BAD_REQUEST', `app ${app.id} is deleted with its deployments; a deployment of a deleted app cannot be restored`, { field: 'deploymentId' });
    nextDeploymentState(deploymentStateOf(deployment, app), { kind: 'RESTORE', approved: deployment.approvedAt !== null });
    await tvc.setDeploymentDeleted(ctx.organizationId, deployment.id, null, ctx.now);
    return { deploymentId: deployment.id };
  },
};
