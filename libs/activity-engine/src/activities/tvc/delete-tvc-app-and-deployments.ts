/**
 * delete_tvc_app_and_deployments — deletes an app and every deployment of it, the live one too
 * (the app no longer runs anything). The rows are kept, marked deleted: the manifests and their
 * approvals remain the record of what was allowed to run. The app disappears from get_tvc_app and
 * list_tvc_apps; its deployments answer `delete: true`.
 */
import { DELETE_TVC_APP_AND_DEPLOYMENTS_ACTIVITY, ZDeleteTvcAppAndDeploymentsIntentSchema, type TDeleteTvcAppAndDeploymentsIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deploymentStateOf, nextDeploymentState } from './deployment-state.js';
import { liveApp } from './tvc-shared.js';

export const deleteTvcAppAndDeployments: TActivityDefinition<TDeleteTvcAppAndDeploymentsIntent, { appId: string }> = {
  ...DELETE_TVC_APP_AND_DEPLOYMENTS_ACTIVITY,
  onFailure: 'reject',
  params: ZDeleteTvcAppAndDeploymentsIntentSchema,
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    await liveApp(tvc, ctx.organizationId, p.appId, 'appId');
    await tvc.lockApp(ctx.organizationId, p.appId);
    const app = await liveApp(tvc, ctx.organizationId, p.appId, 'appId');
    for (const d of await tvc.listDeployments(ctx.organizationId, app.id)) nextDeploymentState(deploymentStateOf(d, app), { kind: 'DELETE_APP' });
    await tvc.deleteAppAndDeployments(ctx.organizationId, app.id, ctx.now);
    return { appId: app.id };
  },
};
