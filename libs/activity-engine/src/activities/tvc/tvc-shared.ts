/**
 * What the TVC activities and queries share: finding an app or deployment of the organization
 * (404 naming the field), the manifest (built once, here), and the `v1Tvc…` views the queries
 * answer with.
 *
 * The manifest is RFC 8785 canonical JSON of what decides the code that runs and who governs it:
 * the namespace (app id, nonce, quorum key), the pivot (image, path, args, binary digest, health
 * check and ingress), the QuorumOS version, debug mode, egress, and both operator sets with their
 * members' keys and thresholds. The pull secret, replica count and instance sizes are left out:
 * they change how it is run, not what runs. A `format` member separates these bytes from anything
 * else an operator key might sign. The manifest id is the lowercase hex SHA-256 of those bytes,
 * so an approval (a signature over them) binds exactly one deployment of one app.
 */
import { canonicalJson, sha256Hex } from '@latchkey/crypto';
import {
  AppError,
  toTimestamp,
  type TTvcAppWire,
  type TTvcDeploymentWire,
  type TTvcHealthCheckType,
  type TTvcOperatorSetWire,
  type TTvcOperatorWire,
} from '@latchkey/domain';
import type { TRepositories, TTvcAppRow, TTvcApprovalRow, TTvcDeploymentRow, TTvcManifestRow, TTvcOperatorRow, TTvcOperatorSetRow } from '@latchkey/persistence';

type TTvc = TRepositories['tvc'];

export const TVC_MANIFEST_FORMAT = 'latchkey-tvc-manifest/v1';

/** Where a Latchkey app would be reached: Latchkey serves no enclave ingress, so the name is under `.invalid`. */
export const publicDomainOf = (appId: string) => `app-${appId}.tvc.latchkey.invalid`;

/**
 * An undeleted app of the organization.
 * @throws AppError NOT_FOUND naming `field`
 */
export async function liveApp(tvc: TTvc, organizationId: string, appId: string, field: string): Promise<TTvcAppRow> {
  const app = await tvc.findApp(organizationId, appId);
  if (!app || app.deletedAt) throw new AppError('NOT_FOUND', `no TVC app ${appId} in organization ${organizationId}`, { field });
  return app;
}

/**
 * A deployment of the organization (deleted ones included) with its app.
 * @throws AppError NOT_FOUND naming `field`
 */
export async function deploymentWithApp(tvc: TTvc, organizationId: string, deploymentId: string, field = 'deploymentId'): Promise<{ deployment: TTvcDeploymentRow; app: TTvcAppRow }> {
  const deployment = await tvc.findDeployment(organizationId, deploymentId);
  const app = deployment ? await tvc.findApp(organizationId, deployment.appId) : null;
  if (!deployment || !app) throw new AppError('NOT_FOUND', `no TVC deployment ${deploymentId} in organization ${organizationId}`, { field });
  return { deployment, app };
}

/**
 * The deployment and its app read under the app's row lock: found once to learn the app, the app
 * locked, then read again, so a state change decides on rows no concurrent change can move.
 * @throws AppError NOT_FOUND naming `deploymentId`
 */
export async function lockedDeploymentWithApp(tvc: TTvc, organizationId: string, deploymentId: string): Promise<{ deployment: TTvcDeploymentRow; app: TTvcAppRow }> {
  const first = await deploymentWithApp(tvc, organizationId, deploymentId);
  await tvc.lockApp(organizationId, first.app.id);
  return deploymentWithApp(tvc, organizationId, deploymentId);
}

/** An app's two operator sets and every member, by id. */
export async function operatorSetsOf(tvc: TTvc, organizationId: string, apps: readonly TTvcAppRow[]): Promise<{ sets: Map<string, TTvcOperatorSetRow>; operators: Map<string, TTvcOperatorRow> }> {
  const setIds = [...new Set(apps.flatMap((a) => [a.manifestSetId, a.shareSetId]))];
  const sets = new Map((await tvc.findOperatorSets(organizationId, setIds)).map((s) => [s.id, s]));
  const operatorIds = [...new Set([...sets.values()].flatMap((s) => s.operatorIds))];
  const operators = new Map((await tvc.findOperators(organizationId, operatorIds)).map((o) => [o.id, o]));
  return { sets, operators };
}

/** The manifest's members of one set: id, name and key, in the set's order. */
function setForManifest(set: TTvcOperatorSetRow, operators: Map<string, TTvcOperatorRow>) {
  return {
    threshold: set.threshold,
    members: set.operatorIds.map((id) => {
      const op = operators.get(id)!;
      return { operatorId: op.id, name: op.name, publicKey: op.publicKey };
    }),
  };
}

export interface TManifestInput {
  app: TTvcAppRow;
  manifestSet: TTvcOperatorSetRow;
  shareSet: TTvcOperatorSetRow;
  operators: Map<string, TTvcOperatorRow>;
  nonce: number;
  qosVersion: string;
  pivotContainerImageUrl: string;
  pivotPath: string;
  pivotArgs: readonly string[];
  expectedPivotDigest: string;
  debugMode: boolean;
  healthCheckType: TTvcHealthCheckType;
  healthCheckPort: number;
  publicIngressPort: number;
}

/** The manifest text and its id (lowercase hex SHA-256 of the text's UTF-8 bytes). */
export function buildManifest(m: TManifestInput): { manifest: string; manifestId: string } {
  const manifest = canonicalJson({
    format: TVC_MANIFEST_FORMAT,
    namespace: { name: m.app.id, nonce: m.nonce, quorumKey: m.app.quorumPublicKey },
    qos: { version: m.qosVersion },
    pivot: {
      image: m.pivotContainerImageUrl,
      path: m.pivotPath,
      args: [...m.pivotArgs],
      hash: m.expectedPivotDigest,
      healthCheck: { type: m.healthCheckType, port: m.healthCheckPort },
      publicIngressPort: m.publicIngressPort,
    },
    debugMode: m.debugMode,
    enableEgress: m.app.enableEgress,
    manifestSet: setForManifest(m.manifestSet, m.operators),
    shareSet: setForManifest(m.shareSet, m.operators),
  });
  return { manifest, manifestId: sha256Hex(new TextEncoder().encode(manifest)) };
}

// ---------------------------------------------------------------------------------------------
// Views
// ---------------------------------------------------------------------------------------------

export function operatorWire(op: TTvcOperatorRow): TTvcOperatorWire {
  const t = toTimestamp(op.createdAt);
  return { id: op.id, name: op.name, publicKey: op.publicKey, createdAt: t, updatedAt: t, encryptPublicKey: op.publicKey, signPublicKey: op.publicKey, keySource: 'EXTERNAL_KEY' };
}

function setWire(set: TTvcOperatorSetRow, operators: Map<string, TTvcOperatorRow>): TTvcOperatorSetWire {
  const t = toTimestamp(set.createdAt);
  return {
    id: set.id,
    name: set.name,
    organizationId: set.organizationId,
    operators: set.operatorIds.flatMap((id) => (operators.has(id) ? [operatorWire(operators.get(id)!)] : [])),
    threshold: set.threshold,
    createdAt: t,
    updatedAt: t,
  };
}

/** The app as `v1TvcApp`. */
export function appWire(app: TTvcAppRow, sets: Map<string, TTvcOperatorSetRow>, operators: Map<string, TTvcOperatorRow>): TTvcAppWire {
  return {
    id: app.id,
    organizationId: app.organizationId,
    name: app.name,
    quorumPublicKey: app.quorumPublicKey,
    manifestSet: setWire(sets.get(app.manifestSetId)!, operators),
    shareSet: setWire(sets.get(app.shareSetId)!, operators),
    enableEgress: app.enableEgress,
    createdAt: toTimestamp(app.createdAt),
    updatedAt: toTimestamp(app.updatedAt),
    ...(app.liveDeploymentId ? { liveDeploymentId: app.liveDeploymentId } : {}),
    publicDomain: publicDomainOf(app.id),
    enableDebugModeDeployments: app.enableDebugModeDeployments,
  };
}

/** Deployments of one app as `v1TvcDeployment`, with their manifests and approvals. */
export async function deploymentWires(tvc: TTvc, app: TTvcAppRow, deployments: readonly TTvcDeploymentRow[]): Promise<TTvcDeploymentWire[]> {
  const org = app.organizationId;
  const { sets, operators } = await operatorSetsOf(tvc, org, [app]);
  const manifestIds = deployments.map((d) => d.manifestId);
  const manifests = new Map<string, TTvcManifestRow>((await tvc.findManifests(org, manifestIds)).map((m) => [m.id, m]));
  const approvals = await tvc.listApprovals(org, manifestIds);
  const approvers = new Map((await tvc.findOperators(org, [...new Set(approvals.map((a) => a.operatorId))])).map((o) => [o.id, o]));
  const byManifest = new Map<string, TTvcApprovalRow[]>();
  for (const a of approvals) byManifest.set(a.manifestId, [...(byManifest.get(a.manifestId) ?? []), a]);
  return deployments.map((d) => {
    const m = manifests.get(d.manifestId)!;
    const mt = toTimestamp(m.createdAt);
    return {
      id: d.id,
      organizationId: d.organizationId,
      appId: d.appId,
      manifestSet: setWire(sets.get(app.manifestSetId)!, operators),
      shareSet: setWire(sets.get(app.shareSetId)!, operators),
      manifest: { id: m.id, manifest: m.manifest, createdAt: mt, updatedAt: mt },
      manifestApprovals: (byManifest.get(d.manifestId) ?? []).map((a) => {
        const t = toTimestamp(a.createdAt);
        return { id: a.id, manifestId: a.manifestId, operator: operatorWire(approvers.get(a.operatorId)!), approval: a.signature, createdAt: t, updatedAt: t };
      }),
      qosVersion: d.qosVersion,
      pivotContainer: {
        containerUrl: d.pivotContainerImageUrl,
        path: d.pivotPath,
        args: d.pivotArgs,
        hasPullSecret: d.sealedPullSecret !== null,
        healthCheckType: d.healthCheckType as TTvcHealthCheckType,
        healthCheckPort: d.healthCheckPort,
        publicIngressPort: d.publicIngressPort,
      },
      createdAt: toTimestamp(d.createdAt),
      updatedAt: toTimestamp(d.updatedAt),
      delete: d.deletedAt !== null,
      debugMode: d.debugMode,
      ...(d.instanceSizeCpus !== null ? { instanceSizeCpus: d.instanceSizeCpus } : {}),
      ...(d.instanceSizeRam !== null ? { instanceSizeRam: d.instanceSizeRam } : {}),
    };
  });
}
