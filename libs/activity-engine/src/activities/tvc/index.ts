/** The TVC control plane (issue 15 §1). One file per kind; this list is the folder's whole registration. */
import { createTvcApp } from './create-tvc-app.js';
import { createTvcDeployment } from './create-tvc-deployment.js';
import { createTvcManifestApprovals } from './create-tvc-manifest-approvals.js';
import { setTvcAppLiveDeployment } from './set-tvc-app-live-deployment.js';
import { deleteTvcDeployment } from './delete-tvc-deployment.js';
import { restoreTvcDeployment } from './restore-tvc-deployment.js';
import { deleteTvcAppAndDeployments } from './delete-tvc-app-and-deployments.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const TVC_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createTvcApp,
  createTvcDeployment,
  createTvcManifestApprovals,
  setTvcAppLiveDeployment,
  deleteTvcDeployment,
  restoreTvcDeployment,
  deleteTvcAppAndDeployments,
];
