/** TVC storage on a real PostgreSQL: manifests kept byte for byte, one approval per operator, deletion of an app with its deployments. */
import { newId } from '@latchkey/crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TDatabase } from '../database.js';
import { openMigratedTestDatabase, type TMigratedTestDatabase } from '../testing/migrated-test-database.js';
import { tvcRepository } from './tvc-repository.js';

let testDb: TMigratedTestDatabase;
let db: TDatabase;

beforeAll(async () => {
  testDb = await openMigratedTestDatabase(4);
  db = testDb.db;
});
afterAll(() => testDb?.close());

async function appWithDeployment(org: string, manifest: string) {
  const repo = tvcRepository(db.prisma);
  const at = new Date();
  const op = { id: newId(), organizationId: org, name: 'op', publicKey: `04${'1'.repeat(128)}` };
  await repo.createOperators([op], at);
  const setId = newId();
  await repo.createOperatorSet({ id: setId, organizationId: org, name: 's', threshold: 1, operatorIds: [op.id] }, at);
  const appId = newId();
  await repo.createApp({ id: appId, organizationId: org, name: 'app', quorumPublicKey: '04ab', manifestSetId: setId, shareSetId: setId, enableEgress: false, enableDebugModeDeployments: false }, at);
  const deploymentId = newId();
  const manifestId = newId();
  await repo.createDeployment(
    {
      id: deploymentId, organizationId: org, appId, manifestId, qosVersion: 'v1', pivotContainerImageUrl: 'a/b', pivotPath: '/p', pivotArgs: ['--x', 'ü'],
      expectedPivotDigest: 'ab'.repeat(32), nonce: Number.MAX_SAFE_INTEGER, sealedPullSecret: null, debugMode: false, healthCheckType: 'TVC_HEALTH_CHECK_TYPE_HTTP',
      healthCheckPort: 1, publicIngressPort: 2, replicas: null, instanceSizeCpus: 2, instanceSizeRam: null,
    },
    manifest,
    at,
  );
  return { repo, op, appId, deploymentId, manifestId };
}

describe('tvcRepository', () => {
  it('keeps the manifest text byte for byte (key order, spacing, non-ASCII) and the nonce exactly', async () => {
    const text = '{"z":1,"a":"é\\u0000",  "n":[ ]}';
    const { repo, deploymentId, manifestId } = await appWithDeployment('org-a', text);
    expect((await repo.findManifest('org-a', manifestId))?.manifest).toBe(text);
    expect(await repo.findManifest('org-b', manifestId)).toBeNull();
    expect(await repo.manifestExists(manifestId)).toBe(true);
    const d = await repo.findDeployment('org-a', deploymentId);
    expect(d).toMatchObject({ nonce: Number.MAX_SAFE_INTEGER, pivotArgs: ['--x', 'ü'], instanceSizeCpus: 2, approvedAt: null, deletedAt: null });
    expect((await repo.findDeploymentByManifest('org-a', manifestId))?.id).toBe(deploymentId);
  });

  it('refuses a second approval of one manifest by one operator', async () => {
    const { repo, op, manifestId } = await appWithDeployment('org-c', '{}');
    await repo.createApprovals([{ id: newId(), organizationId: 'org-c', manifestId, operatorId: op.id, signature: '30' }], new Date());
    await expect(repo.createApprovals([{ id: newId(), organizationId: 'org-c', manifestId, operatorId: op.id, signature: '31' }], new Date())).rejects.toThrow();
    expect(await repo.listApprovals('org-c', [manifestId])).toHaveLength(1);
  });

  it('deletes an app with its deployments and clears its live deployment; lists skip the deleted app', async () => {
    const { repo, appId, deploymentId } = await appWithDeployment('org-d', '{"d":1}');
    await repo.setLiveDeployment('org-d', appId, deploymentId, new Date());
    expect((await repo.findApp('org-d', appId))?.liveDeploymentId).toBe(deploymentId);
    expect(await repo.deleteAppAndDeployments('org-d', appId, new Date())).toBe(1);
    const app = await repo.findApp('org-d', appId);
    expect(app?.deletedAt).toBeInstanceOf(Date);
    expect(app?.liveDeploymentId).toBeNull();
    expect((await repo.findDeployment('org-d', deploymentId))?.deletedAt).toBeInstanceOf(Date);
    expect(await repo.listApps('org-d')).toEqual([]);
    expect(await repo.lockApp('org-d', appId)).toBe(true);
    expect(await repo.lockApp('org-d', 'nope')).toBe(false);
  });

  it('refuses an operator set whose threshold exceeds its members', async () => {
    const repo = tvcRepository(db.prisma);
    await expect(repo.createOperatorSet({ id: newId(), organizationId: 'org-e', name: 's', threshold: 2, operatorIds: ['one'] }, new Date())).rejects.toThrow();
  });
});
