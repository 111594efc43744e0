/**
 * TVC (issue 15 §1): the organization's apps with their operator sets, each app's deployments
 * with their manifests and operator approvals, and the control plane's activities of the signed-in
 * user — operator approvals (signatures an operator made elsewhere), the live switch, delete and
 * restore. A deployment's state (CREATED, APPROVED, LIVE, DELETED) is the engine's to decide; the
 * dashboard only labels what the wire shows (client/tvc-state.ts).
 */
import {
  CREATE_TVC_MANIFEST_APPROVALS_ACTIVITY,
  DELETE_TVC_DEPLOYMENT_ACTIVITY,
  RESTORE_TVC_DEPLOYMENT_ACTIVITY,
  SET_TVC_APP_LIVE_DEPLOYMENT_ACTIVITY,
  ZCreateTvcManifestApprovalsIntentSchema,
  ZListTvcAppDeploymentsRequestSchema,
  ZListTvcAppsRequestSchema,
  ZTvcDeploymentIdIntentSchema,
  type TTvcAppWire,
  type TTvcDeploymentWire,
} from '@latchkey/domain';
import { engineQuery, engineSubmit } from '../trpc/engine-calls.js';
import { router } from '../trpc/init.js';

export const tvcRouter = router({
  apps: engineQuery<{ tvcApps: TTvcAppWire[] }, typeof ZListTvcAppsRequestSchema>('list_tvc_apps', ZListTvcAppsRequestSchema),
  deployments: engineQuery<{ tvcDeployments: TTvcDeploymentWire[] }, typeof ZListTvcAppDeploymentsRequestSchema>('list_tvc_app_deployments', ZListTvcAppDeploymentsRequestSchema),
  approve: engineSubmit(CREATE_TVC_MANIFEST_APPROVALS_ACTIVITY, ZCreateTvcManifestApprovalsIntentSchema),
  setLive: engineSubmit(SET_TVC_APP_LIVE_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema),
  deleteDeployment: engineSubmit(DELETE_TVC_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema),
  restoreDeployment: engineSubmit(RESTORE_TVC_DEPLOYMENT_ACTIVITY, ZTvcDeploymentIdIntentSchema),
});
