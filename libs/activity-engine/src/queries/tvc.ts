/**
 * The TVC queries (issue 15 §1), answered in sdk-types' `v1GetTvc…Response` shapes: apps and
 * deployments of the organization (a deleted app is gone; a deleted deployment answers
 * `delete: true`), the QuorumOS versions this installation accepts, an image check that contacts
 * no registry, and debug logs — of which Latchkey, running no enclave, has none.
 */
import {
  AppError,
  DEFAULT_TVC_QOS_VERSIONS,
  parseImageReference,
  ZGetTvcAppRequestSchema,
  ZGetTvcDeploymentDebugLogsRequestSchema,
  ZGetTvcDeploymentRequestSchema,
  ZGetTvcQosVersionsRequestSchema,
  ZListTvcAppDeploymentsRequestSchema,
  ZListTvcAppsRequestSchema,
  ZValidateTvcImageRequestSchema,
  type TGetTvcAppRequest,
  type TGetTvcDeploymentDebugLogsRequest,
  type TGetTvcDeploymentRequest,
  type TGetTvcQosVersionsRequest,
  type TListTvcAppDeploymentsRequest,
  type TListTvcAppsRequest,
  type TTvcAppWire,
  type TTvcDeploymentWire,
  type TValidateTvcImageRequest,
} from '@latchkey/domain';
import { appWire, deploymentWires, deploymentWithApp, liveApp, operatorSetsOf } from '../activities/tvc/tvc-shared.js';
import type { TQueryDefinition } from './query-definition.js';

export const getTvcApp: TQueryDefinition<TGetTvcAppRequest, { tvcApp: TTvcAppWire }> = {
  path: 'get_tvc_app',
  request: ZGetTvcAppRequestSchema,
  async handle(ctx, req) {
    const tvc = ctx.store.tvc;
    const app = await liveApp(tvc, ctx.organization.id, req.tvcAppId, 'tvcAppId');
    const { sets, operators } = await operatorSetsOf(tvc, ctx.organization.id, [app]);
    return { tvcApp: appWire(app, sets, operators) };
  },
};

export const listTvcApps: TQueryDefinition<TListTvcAppsRequest, { tvcApps: TTvcAppWire[] }> = {
  path: 'list_tvc_apps',
  request: ZListTvcAppsRequestSchema,
  async handle(ctx) {
    const tvc = ctx.store.tvc;
    const apps = await tvc.listApps(ctx.organization.id);
    const { sets, operators } = await operatorSetsOf(tvc, ctx.organization.id, apps);
    return { tvcApps: apps.map((a) => appWire(a, sets, operators)) };
  },
};

export const getTvcDeployment: TQueryDefinition<TGetTvcDeploymentRequest, { tvcDeployment: TTvcDeploymentWire }> = {
  path: 'get_tvc_deployment',
  request: ZGetTvcDeploymentRequestSchema,
  async handle(ctx, req) {
    const { deployment, app } = await deploymentWithApp(ctx.store.tvc, ctx.organization.id, req.deploymentId);
    const [wire] = await deploymentWires(ctx.store.tvc, app, [deployment]);
    return { tvcDeployment: wire! };
  },
};

/** sdk-server's `getTvcAppDeployments`. */
export const listTvcAppDeployments: TQueryDefinition<TListTvcAppDeploymentsRequest, { tvcDeployments: TTvcDeploymentWire[] }> = {
  path: 'list_tvc_app_deployments',
  request: ZListTvcAppDeploymentsRequestSchema,
  async handle(ctx, req) {
    const tvc = ctx.store.tvc;
    const app = await liveApp(tvc, ctx.organization.id, req.appId, 'appId');
    return { tvcDeployments: await deploymentWires(tvc, app, await tvc.listDeployments(ctx.organization.id, app.id)) };
  },
};

/** LATCHKEY_TVC_QOS_VERSIONS: the first listed is the recommended (latest) one. */
export const getTvcQosVersions: TQueryDefinition<TGetTvcQosVersionsRequest, { availableVersions: string[]; latestVersion: string }> = {
  path: 'get_tvc_qos_versions',
  request: ZGetTvcQosVersionsRequestSchema,
  async handle(ctx) {
    const versions = ctx.services.tvc?.qosVersions ?? DEFAULT_TVC_QOS_VERSIONS;
    return { availableVersions: [...versions], latestVersion: versions[0]! };
  },
};

/**
 * The image reference is well formed (the request schema's parser) and pinned by digest; the
 * digest is answered as `resolvedImageDigest`. No registry is contacted, so nothing says the image
 * exists: pinning is what makes the reference mean one image. The pull secret is not used.
 */
export const validateTvcImage: TQueryDefinition<TValidateTvcImageRequest, { resolvedImageDigest: string }> = {
  path: 'validate_tvc_image',
  request: ZValidateTvcImageRequestSchema,
  async handle(_ctx, req) {
    const ref = parseImageReference(req.pivotContainerImageUrl);
    if ('error' in ref) throw new AppError('BAD_REQUEST', `pivotContainerImageUrl: ${ref.error}`, { field: 'pivotContainerImageUrl' });
    if (ref.digest === undefined) {
      throw new AppError('BAD_REQUEST', 'pivotContainerImageUrl is not pinned by digest: append @sha256:<64 hex digits> (Latchkey contacts no registry to resolve a tag)', { field: 'pivotContainerImageUrl' });
    }
    return { resolvedImageDigest: ref.digest };
  },
};

/**
 * Always an empty list: Latchkey runs no enclave, so no deployment has log lines. `note` (an
 * addition the SDK's type does not have, ignored by it) says why, and whether the deployment is
 * in debug mode at all (only debug-mode deployments expose logs on Turnkey).
 */
export const getTvcDeploymentDebugLogs: TQueryDefinition<TGetTvcDeploymentDebugLogsRequest, { entries: never[]; note: string }> = {
  path: 'get_tvc_deployment_debug_logs',
  request: ZGetTvcDeploymentDebugLogsRequestSchema,
  async handle(ctx, req) {
    const { deployment } = await deploymentWithApp(ctx.store.tvc, ctx.organization.id, req.deploymentId);
    const note = deployment.debugMode
      ? 'Latchkey keeps the TVC control plane (apps, manifests, approvals) and runs no enclave, so this debug-mode deployment has no log lines.'
      : 'This deployment is not in debug mode: its logs are not exposed (and Latchkey runs no enclave, so there are none).';
    return { entries: [], note };
  },
};
