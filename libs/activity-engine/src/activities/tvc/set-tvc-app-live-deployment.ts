/**
 * set_tvc_app_live_deployment (`ACTIVITY_TYPE_UPDATE_TVC_APP_LIVE_DEPLOYMENT`, sdk-server's
 * `updateTvcAppLiveDeployment`) — makes an approved, undeleted deployment its app's live one; the
 * one live before it goes back to APPROVED. Decided under the app's row lock, so two switches of
 * one app cannot interleave with a deletion.
 */
import { SET_TVC_APP_LIVE_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema, type TTvcDeploymentIdIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deploymentStateOf, nextDeploymentState } from './deployment-state.js';
import { lockedDeploymentWithApp } from './tvc-shared.js';

export const setTvcAppLiveDeployment: TActivityDefinition<TTvcDeploymentIdIntent, Record<string, never>> = {
  ...SET_TVC_APP_LIVE_DEPLOYMENT_ACTIVITY,
  onFailure: 'reject',
  params: ZTvcDeploymentIdIntentSchema,
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    const { deployment, app } = await lockedDeploymentWithApp(tvc, ctx.organizationId, p.deploymentId);
    nextDeploymentState(deploymentStateOf(deployment, app), { kind: 'SET_LIVE' });
    if (app.liveDeploymentId && app.liveDeploymentId !== deployment.id) nextDeploymentState('LIVE', { kind: 'REPLACED' });
    await tvc.setLiveDeployment(ctx.organizationId, app.id, deployment.id, ctx.now);
    return {};
  },
};
