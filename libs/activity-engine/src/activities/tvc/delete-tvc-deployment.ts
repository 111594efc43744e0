/**
 * delete_tvc_deployment — marks a deployment deleted (`delete: true` on reads). The live one is
 * refused: an app would be left without the code it runs; set another live first, or delete the
 * app. A deleted deployment keeps its manifest and approvals, so restore_tvc_deployment can bring
 * it back as it was.
 */
import { DELETE_TVC_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema, type TTvcDeploymentIdIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deploymentStateOf, nextDeploymentState } from './deployment-state.js';
import { lockedDeploymentWithApp } from './tvc-shared.js';

export const deleteTvcDeployment: TActivityDefinition<TTvcDeploymentIdIntent, { deploymentId: string }> = {
  ...DELETE_TVC_DEPLOYMENT_ACTIVITY,
  onFailure: 'reject',
  params: ZTvcDeploymentIdIntentSchema,
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    const { deployment, app } = await lockedDeploymentWithApp(tvc, ctx.organizationId, p.deploymentId);
    nextDeploymentState(deploymentStateOf(deployment, app), { kind: 'DELETE' });
    await tvc.setDeploymentDeleted(ctx.organizationId, deployment.id, ctx.now, ctx.now);
    return { deploymentId: deployment.id };
  },
};
