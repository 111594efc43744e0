/**
 * The TVC control plane's storage (issue 15 §1, migration 0019): operators, operator sets, apps,
 * deployments with their manifests, and operator approvals. What the TVC activities write inside
 * their activity's transaction and the TVC queries read. The engine decides what may change
 * (the deployment state machine); this layer stores what it is given, and offers the row locks
 * that serialise the decisions (`lockApp`, `lockDeployment`).
 */
import type { TDb } from '../database.js';

export interface TTvcOperatorRow {
  id: string;
  organizationId: string;
  name: string;
  /** Uncompressed P-256, lower-case hex (`04…`). */
  publicKey: string;
  createdAt: Date;
}

export interface TTvcOperatorSetRow {
  id: string;
  organizationId: string;
  name: string;
  threshold: number;
  /** In the order given at creation. */
  operatorIds: string[];
  createdAt: Date;
}

export interface TTvcAppRow {
  id: string;
  organizationId: string;
  name: string;
  quorumPublicKey: string;
  manifestSetId: string;
  shareSetId: string;
  enableEgress: boolean;
  enableDebugModeDeployments: boolean;
  liveDeploymentId: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface TTvcDeploymentRow {
  id: string;
  organizationId: string;
  appId: string;
  manifestId: string;
  qosVersion: string;
  pivotContainerImageUrl: string;
  pivotPath: string;
  pivotArgs: string[];
  expectedPivotDigest: string;
  nonce: number;
  /** The client's encrypted pull secret, sealed by the key vault (aad `tvc-pull-secret:<id>`). */
  sealedPullSecret: string | null;
  debugMode: boolean;
  healthCheckType: string;
  healthCheckPort: number;
  publicIngressPort: number;
  replicas: number | null;
  instanceSizeCpus: number | null;
  instanceSizeRam: number | null;
  approvedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface TTvcManifestRow {
  id: string;
  organizationId: string;
  deploymentId: string;
  /** The canonical JSON text, exactly as signed. */
  manifest: string;
  createdAt: Date;
}

export interface TTvcApprovalRow {
  id: string;
  organizationId: string;
  manifestId: string;
  operatorId: string;
  /** DER hex, as the operator sent it. */
  signature: string;
  createdAt: Date;
}

type TDeploymentRecord = Omit<TTvcDeploymentRow, 'nonce'> & { nonce: bigint };
const toDeployment = (r: TDeploymentRecord): TTvcDeploymentRow => ({ ...r, nonce: Number(r.nonce) });

export function tvcRepository(db: TDb) {
  return {
    async createOperators(rows: readonly Omit<TTvcOperatorRow, 'createdAt'>[], at: Date): Promise<void> {
      if (rows.length > 0) await db.tvcOperator.createMany({ data: rows.map((r) => ({ ...r, createdAt: at })) });
    },
    /** The organization's operators among `ids` (others' and unknown ids are simply absent). */
    async findOperators(organizationId: string, ids: readonly string[]): Promise<TTvcOperatorRow[]> {
      if (ids.length === 0) return [];
      return db.tvcOperator.findMany({ where: { organizationId, id: { in: [...ids] } } });
    },
    async createOperatorSet(row: Omit<TTvcOperatorSetRow, 'createdAt'>, at: Date): Promise<void> {
      await db.tvcOperatorSet.create({ data: { ...row, createdAt: at } });
    },
    async findOperatorSets(organizationId: string, ids: readonly string[]): Promise<TTvcOperatorSetRow[]> {
      if (ids.length === 0) return [];
      return db.tvcOperatorSet.findMany({ where: { organizationId, id: { in: [...ids] } } });
    },

    async createApp(row: Omit<TTvcAppRow, 'createdAt' | 'updatedAt' | 'deletedAt' | 'liveDeploymentId'>, at: Date): Promise<void> {
      await db.tvcApp.create({ data: { ...row, createdAt: at, updatedAt: at } });
    },
    /** An app, deleted or not (the caller decides what a deleted one means). */
    async findApp(organizationId: string, id: string): Promise<TTvcAppRow | null> {
      return db.tvcApp.findFirst({ where: { organizationId, id } });
    },
    /** The organization's undeleted apps, oldest first. */
    async listApps(organizationId: string): Promise<TTvcAppRow[]> {
      return db.tvcApp.findMany({ where: { organizationId, deletedAt: null }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    },
    /**
     * Locks the app's row until the transaction ends: the live switch, deletions and restores of
     * one app are decided one at a time. @returns whether the app exists
     */
    async lockApp(organizationId: string, id: string): Promise<boolean> {
      const rows = await db.$queryRaw<{ id: string }[]>`SELECT id FROM tvc_apps WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`;
      return rows.length > 0;
    },
    async setLiveDeployment(organizationId: string, appId: string, deploymentId: string | null, at: Date): Promise<void> {
      await db.tvcApp.updateMany({ where: { organizationId, id: appId }, data: { liveDeploymentId: deploymentId, updatedAt: at } });
    },
    /** Marks the app and every undeleted deployment of it deleted, and clears its live deployment. @returns the deployments it deleted */
    async deleteAppAndDeployments(organizationId: string, appId: string, at: Date): Promise<number> {
      await db.tvcApp.updateMany({ where: { organizationId, id: appId }, data: { deletedAt: at, liveDeploymentId: null, updatedAt: at } });
      const { count } = await db.tvcDeployment.updateMany({ where: { organizationId, appId, deletedAt: null }, data: { deletedAt: at, updatedAt: at } });
      return count;
    },

    /** The deployment and its manifest, written together. */
    async createDeployment(row: Omit<TTvcDeploymentRow, 'createdAt' | 'updatedAt' | 'deletedAt' | 'approvedAt'>, manifest: string, at: Date): Promise<void> {
      await db.tvcDeployment.create({ data: { ...row, nonce: BigInt(row.nonce), createdAt: at, updatedAt: at } });
      await db.tvcManifest.create({ data: { id: row.manifestId, organizationId: row.organizationId, deploymentId: row.id, manifest, createdAt: at } });
    },
    async findDeployment(organizationId: string, id: string): Promise<TTvcDeploymentRow | null> {
      const r = await db.tvcDeployment.findFirst({ where: { organizationId, id } });
      return r ? toDeployment(r) : null;
    },
    async findDeploymentByManifest(organizationId: string, manifestId: string): Promise<TTvcDeploymentRow | null> {
      const r = await db.tvcDeployment.findFirst({ where: { organizationId, manifestId } });
      return r ? toDeployment(r) : null;
    },
    /** Every deployment of the app, deleted ones included, oldest first. */
    async listDeployments(organizationId: string, appId: string): Promise<TTvcDeploymentRow[]> {
      return (await db.tvcDeployment.findMany({ where: { organizationId, appId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(toDeployment);
    },
    /** Locks the deployment's row until the transaction ends (approvals of one manifest are counted one request at a time). */
    async lockDeployment(organizationId: string, id: string): Promise<void> {
      await db.$queryRaw`SELECT id FROM tvc_deployments WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE`;
    },
    async markApproved(organizationId: string, id: string, at: Date): Promise<void> {
      await db.tvcDeployment.updateMany({ where: { organizationId, id, approvedAt: null }, data: { approvedAt: at, updatedAt: at } });
    },
    /** Deletes (`at`) or restores (`null`) a deployment. */
    async setDeploymentDeleted(organizationId: string, id: string, deletedAt: Date | null, at: Date): Promise<void> {
      await db.tvcDeployment.updateMany({ where: { organizationId, id }, data: { deletedAt, updatedAt: at } });
    },

    /** A manifest by id in any organization: ids are content hashes, so a collision must be seen wherever it is. */
    async manifestExists(id: string): Promise<boolean> {
      return (await db.tvcManifest.count({ where: { id } })) > 0;
    },
    async findManifest(organizationId: string, id: string): Promise<TTvcManifestRow | null> {
      return db.tvcManifest.findFirst({ where: { organizationId, id } });
    },
    async findManifests(organizationId: string, ids: readonly string[]): Promise<TTvcManifestRow[]> {
      if (ids.length === 0) return [];
      return db.tvcManifest.findMany({ where: { organizationId, id: { in: [...ids] } } });
    },

    async createApprovals(rows: readonly Omit<TTvcApprovalRow, 'createdAt'>[], at: Date): Promise<void> {
      if (rows.length > 0) await db.tvcManifestApproval.createMany({ data: rows.map((r) => ({ ...r, createdAt: at })) });
    },
    /** Approvals of the given manifests, oldest first. */
    async listApprovals(organizationId: string, manifestIds: readonly string[]): Promise<TTvcApprovalRow[]> {
      if (manifestIds.length === 0) return [];
      return db.tvcManifestApproval.findMany({ where: { organizationId, manifestId: { in: [...manifestIds] } }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    },
  };
}
export type TTvcRepository = ReturnType<typeof tvcRepository>;
