/**
 * The TVC control plane end to end (issue 15 §1), through the unmodified `@turnkey/sdk-server`
 * (and a raw stamped request for the seed's `ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT`, which no SDK
 * method sends). An app with a 2-of-3 manifest set; operators are node:crypto P-256 keys that sign
 * the manifest bytes `get_tvc_deployment` returns — one approval is not enough, two approve;
 * forged, foreign, unknown and repeated approvals are refused with a 400 naming them and nothing
 * written; the live switch; delete and restore, each refused transition of the state machine;
 * every TVC method of sdk-server answers.
 */
import { createHash, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { ApiKeyStamper } from '@turnkey/api-key-stamper';
import { startLatchkey, type TLatchkey } from '@latchkey/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, uniqueName } from './e2e-helpers.js';
import { policyE2e, refusal, type TKeyPair } from './policy-e2e-helpers.js';

let latchkey: TLatchkey;
let e2e: ReturnType<typeof policyE2e>;
const root = () => e2e.sdk(e2e.rootKey);

interface TOperatorKey {
  publicKey: string;
  sign(bytes: string): string;
}
function operatorKey(): TOperatorKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const jwk = publicKey.export({ format: 'jwk' });
  const hex = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return { publicKey: hex, sign: (text: string) => sign('sha256', Buffer.from(text, 'utf8'), privateKey as KeyObject).toString('hex') };
}

const DIGEST = (c: string) => c.repeat(64);
const IMAGE = `ghcr.io/acme/enclave-app@sha256:${'a1'.repeat(32)}`;
const PULL_SECRET = `pull-secret-${'x'.repeat(40)}`;
const ops = [operatorKey(), operatorKey(), operatorKey()];
const shareOp = operatorKey();
const foreignOp = operatorKey();

let appId: string;
let operatorIds: string[];
let foreignOperatorId: string;

const deploymentParams = (nonce: number, extra: Record<string, unknown> = {}) => ({
  appId,
  qosVersion: 'v9.1.0',
  pivotContainerImageUrl: IMAGE,
  pivotPath: '/app/server',
  pivotArgs: ['--port', '3000'],
  expectedPivotDigest: DIGEST('b'),
  nonce,
  healthCheckType: 'TVC_HEALTH_CHECK_TYPE_HTTP' as const,
  healthCheckPort: 3000,
  publicIngressPort: 443,
  ...extra,
});

async function deployment(id: string) {
  return (await root().getTvcDeployment({ deploymentId: id })).tvcDeployment;
}
async function manifestOf(id: string): Promise<string> {
  return (await deployment(id)).manifest.manifest;
}

/** A stamped POST of `body` to `path` by the root key, exactly as written. */
async function stamped(key: TKeyPair, path: string, body: object) {
  const text = JSON.stringify(body);
  const { stampHeaderName, stampHeaderValue } = await new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).stamp(text);
  return rawRequest(`${latchkey.baseUrl}${path}`, { body: text, headers: { 'content-type': 'application/json', [stampHeaderName]: stampHeaderValue } });
}

beforeAll(async () => {
  // A generous wait for readiness (not a speed check): the machine running the suites may be loaded.
  latchkey = await startLatchkey({ env: { LATCHKEY_TVC_QOS_VERSIONS: 'v9.1.0,v9.0.0' }, apps: ['public-api'], timeoutMs: 170_000 });
  e2e = policyE2e(latchkey);
}, 180_000);

afterAll(async () => {
  await latchkey?.stop();
});

describe('apps', () => {
  it('create_tvc_app makes a 2-of-3 manifest set and a share set from params', async () => {
    const r = await root().createTvcApp({
      name: uniqueName('tvc-app'),
      quorumPublicKey: operatorKey().publicKey,
      manifestSetParams: { name: 'approvers', threshold: 2, newOperators: ops.map((o, i) => ({ name: `op-${i}`, publicKey: o.publicKey })) },
      shareSetParams: { name: 'holders', threshold: 1, newOperators: [{ name: 'share-op', publicKey: shareOp.publicKey }] },
    });
    expect(r).toMatchObject({ manifestSetThreshold: 2, shareSetThreshold: 1 });
    expect(r.manifestSetOperatorIds).toHaveLength(3);
    expect(r.shareSetOperatorIds).toHaveLength(1);
    appId = r.appId;
    operatorIds = r.manifestSetOperatorIds;

    const other = await root().createTvcApp({
      name: uniqueName('tvc-other'),
      quorumPublicKey: 'ab'.repeat(33),
      manifestSetParams: { name: 'other', threshold: 1, newOperators: [{ name: 'foreign', publicKey: foreignOp.publicKey }] },
      shareSetId: r.shareSetId,
      enableDebugModeDeployments: true,
    });
    foreignOperatorId = other.manifestSetOperatorIds[0]!;
    expect(other.shareSetId).toBe(r.shareSetId);
  });

  it('answers the app as v1TvcApp, and lists it', async () => {
    const { tvcApp } = await root().getTvcApp({ tvcAppId: appId });
    expect(tvcApp).toMatchObject({ id: appId, organizationId: e2e.orgId, enableEgress: false, enableDebugModeDeployments: false, publicDomain: expect.stringContaining(appId) });
    expect(tvcApp.manifestSet.threshold).toBe(2);
    expect(tvcApp.manifestSet.operators.map((o) => o.publicKey)).toEqual(ops.map((o) => o.publicKey));
    expect(tvcApp.liveDeploymentId).toBeUndefined();
    expect((await root().getTvcApps({})).tvcApps.map((a) => a.id)).toContain(appId);
  });

  it('refuses bad apps with a 400 naming the field, writing nothing', async () => {
    const before = (await root().getTvcApps({})).tvcApps.length;
    const base = { name: 'x', quorumPublicKey: 'abcd', shareSetParams: { name: 's', threshold: 1, newOperators: [{ name: 'a', publicKey: shareOp.publicKey }] } };
    const threshold = await refusal(root().createTvcApp({ ...base, manifestSetParams: { name: 'm', threshold: 3, newOperators: [{ name: 'a', publicKey: ops[0]!.publicKey }] } }));
    expect([threshold.code, threshold.message]).toEqual([3, expect.stringContaining('manifestSetParams.threshold')]);
    const offCurve = await refusal(root().createTvcApp({ ...base, manifestSetParams: { name: 'm', threshold: 1, newOperators: [{ name: 'a', publicKey: `04${'1'.repeat(128)}` }] } }));
    expect(offCurve.message).toContain('manifestSetParams.newOperators.0.publicKey');
    const compressed = await refusal(root().createTvcApp({ ...base, manifestSetParams: { name: 'm', threshold: 1, newOperators: [{ name: 'a', publicKey: `02${'1'.repeat(64)}` }] } }));
    expect(compressed.message).toContain('manifestSetParams.newOperators.0.publicKey');
    expect((await refusal(root().createTvcApp(base))).message).toContain('manifestSet');
    expect((await refusal(root().createTvcApp({ ...base, manifestSetId: 'no-such-set' }))).message).toContain('no-such-set');
    expect((await root().getTvcApps({})).tvcApps).toHaveLength(before);
  });

  it('answers 404 for an unknown app', async () => {
    expect((await refusal(root().getTvcApp({ tvcAppId: 'no-such-app' }))).code).toBe(5);
  });
});

describe('configuration and image checks', () => {
  it('get_tvc_qos_versions answers LATCHKEY_TVC_QOS_VERSIONS, the first as latest', async () => {
    expect(await root().getTvcQosVersions({})).toEqual({ availableVersions: ['v9.1.0', 'v9.0.0'], latestVersion: 'v9.1.0' });
  });

  it('validate_tvc_image accepts a pinned reference and refuses others, contacting nothing', async () => {
    expect(await root().validateTvcImage({ pivotContainerImageUrl: IMAGE })).toEqual({ resolvedImageDigest: `sha256:${'a1'.repeat(32)}` });
    const tag = await refusal(root().validateTvcImage({ pivotContainerImageUrl: 'ghcr.io/acme/app:latest' }));
    expect([tag.code, tag.message]).toEqual([3, expect.stringMatching(/pivotContainerImageUrl.*not pinned by digest/)]);
    const scheme = await refusal(root().validateTvcImage({ pivotContainerImageUrl: `https://${IMAGE}` }));
    expect(scheme.message).toMatch(/pivotContainerImageUrl.*without a scheme/);
  });
});

let d1: string;
let m1: string;

describe('deployments and approvals', () => {
  it('refuses a deployment with an unknown QOS version, debug mode the app forbids, or a bad image (400 naming the field)', async () => {
    expect((await refusal(root().createTvcDeployment(deploymentParams(1, { qosVersion: 'v0.0.1' })))).message).toMatch(/qosVersion v0\.0\.1.*v9\.1\.0, v9\.0\.0/);
    expect((await refusal(root().createTvcDeployment(deploymentParams(1, { debugMode: true })))).message).toContain('debugMode');
    expect((await refusal(root().createTvcDeployment(deploymentParams(1, { pivotContainerImageUrl: 'Bad Image' })))).message).toContain('pivotContainerImageUrl');
    expect((await refusal(root().createTvcDeployment(deploymentParams(1, { expectedPivotDigest: 'xyz' })))).message).toContain('expectedPivotDigest');
    expect((await root().getTvcAppDeployments({ appId })).tvcDeployments).toEqual([]);
  });

  it('creates a deployment whose manifest id is the SHA-256 of the manifest bytes it returns; the pull secret is sealed, never returned', async () => {
    const r = await root().createTvcDeployment(deploymentParams(1_700_000_001, { pivotContainerEncryptedPullSecret: PULL_SECRET, replicas: 2, instanceSizeCpus: 4 }));
    d1 = r.deploymentId;
    m1 = r.manifestId;
    const d = await deployment(d1);
    expect(d.manifest.id).toBe(m1);
    expect(createHash('sha256').update(d.manifest.manifest, 'utf8').digest('hex')).toBe(m1);
    const manifest = JSON.parse(d.manifest.manifest) as Record<string, any>;
    expect(manifest.namespace).toEqual({ name: appId, nonce: 1_700_000_001, quorumKey: expect.stringMatching(/^04/) });
    expect(manifest.pivot).toMatchObject({ hash: DIGEST('b'), args: ['--port', '3000'], image: IMAGE });
    expect(manifest.manifestSet.threshold).toBe(2);
    expect(manifest.manifestSet.members.map((m: { publicKey: string }) => m.publicKey)).toEqual(ops.map((o) => o.publicKey));
    expect(d).toMatchObject({ appId, qosVersion: 'v9.1.0', delete: false, debugMode: false, instanceSizeCpus: 4, manifestApprovals: [] });
    expect(d.pivotContainer).toEqual({ containerUrl: IMAGE, path: '/app/server', args: ['--port', '3000'], hasPullSecret: true, healthCheckType: 'TVC_HEALTH_CHECK_TYPE_HTTP', healthCheckPort: 3000, publicIngressPort: 443 });
    expect(JSON.stringify(d)).not.toContain(PULL_SECRET);

    const db = new pg.Client({ connectionString: await latchkey.databaseUrl() });
    await db.connect();
    try {
      const { rows } = await db.query<{ sealed_pull_secret: string }>('SELECT sealed_pull_secret FROM tvc_deployments WHERE id = $1', [d1]);
      expect(rows[0]!.sealed_pull_secret).toMatch(/^v1\./);
      expect(rows[0]!.sealed_pull_secret).not.toContain(PULL_SECRET);
      expect(rows[0]!.sealed_pull_secret).not.toContain(Buffer.from(PULL_SECRET).toString('base64').slice(0, 20));
    } finally {
      await db.end();
    }
    expect(latchkey.output()).not.toContain(PULL_SECRET);
  });

  it('refuses a second deployment with the identical manifest (same nonce), naming the nonce', async () => {
    const dup = await refusal(root().createTvcDeployment(deploymentParams(1_700_000_001)));
    expect([dup.code, dup.message]).toEqual([3, expect.stringMatching(/nonce/)]);
  });

  it('refuses forged, foreign, unknown and repeated-in-request approvals, naming each, and writes nothing', async () => {
    const manifest = await manifestOf(d1);
    const forged = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[0]!.sign(`${manifest} `) }] }));
    expect([forged.code, forged.message]).toEqual([3, expect.stringContaining('approvals.0.signature')]);
    const wrongKey = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[1]!.sign(manifest) }] }));
    expect(wrongKey.message).toContain('approvals.0.signature');
    const foreign = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: foreignOperatorId, signature: foreignOp.sign(manifest) }] }));
    expect(foreign.message).toMatch(/approvals\.0\.operatorId.*not a member of the manifest set/);
    const unknown = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: 'no-such-operator', signature: ops[0]!.sign(manifest) }] }));
    expect(unknown.message).toContain('approvals.0.operatorId');
    // A good approval beside a forged one: the request is refused whole, the good one not recorded.
    const mixed = await refusal(
      root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[0]!.sign(manifest) }, { operatorId: operatorIds[1]!, signature: ops[2]!.sign(manifest) }] }),
    );
    expect(mixed.message).toContain('approvals.1.signature');
    const twice = await refusal(
      root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[0]!.sign(manifest) }, { operatorId: operatorIds[0]!, signature: ops[0]!.sign(manifest) }] }),
    );
    expect(twice.message).toMatch(/approvals\.1\.operatorId.*listed twice/);
    expect((await deployment(d1)).manifestApprovals).toEqual([]);
    expect((await refusal(root().createTvcManifestApprovals({ manifestId: 'no-such-manifest', approvals: [{ operatorId: operatorIds[0]!, signature: '3006020101020101' }] }))).code).toBe(5);
  });

  it('one approval of a 2-of-3 set is not enough: the deployment cannot go live', async () => {
    const manifest = await manifestOf(d1);
    const r = await root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[0]!.sign(manifest) }] });
    expect(r.approvalIds).toHaveLength(1);
    const d = await deployment(d1);
    expect(d.manifestApprovals.map((a) => [a.operator.id, a.manifestId])).toEqual([[operatorIds[0], m1]]);
    const notYet = await refusal(root().updateTvcAppLiveDeployment({ deploymentId: d1 }));
    expect([notYet.code, notYet.message]).toEqual([3, expect.stringContaining('not approved')]);
  });

  it('refuses the same operator approving again', async () => {
    const again = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[0]!, signature: ops[0]!.sign(await manifestOf(d1)) }] }));
    expect(again.message).toMatch(/approvals\.0\.operatorId.*already approved/);
    expect((await deployment(d1)).manifestApprovals).toHaveLength(1);
  });

  it('the second approval, under the seed type name ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT and naming the deployment, approves it', async () => {
    const manifest = await manifestOf(d1);
    const res = await stamped(e2e.rootKey, '/public/v1/submit/create_tvc_manifest_approvals', {
      type: 'ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT',
      timestampMs: String(Date.now()),
      organizationId: e2e.orgId,
      parameters: { manifestId: d1, approvals: [{ operatorId: operatorIds[2]!, signature: ops[2]!.sign(manifest) }] },
    });
    expect(res.status, res.text).toBe(200);
    const activity = (res.json as { activity: { status: string; type: string; result: { createTvcManifestApprovalsResult: { approvalIds: string[] } }; intent: Record<string, unknown> } }).activity;
    expect(activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
    expect(activity.type).toBe('ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT');
    expect(activity.intent).toHaveProperty('createTvcManifestApprovalsIntent');
    expect(activity.result.createTvcManifestApprovalsResult.approvalIds).toHaveLength(1);
    expect((await deployment(d1)).manifestApprovals).toHaveLength(2);
  });
});

let d2: string;
let d3: string;

describe('live switch, delete and restore', () => {
  it('an approved deployment goes live', async () => {
    expect((await root().updateTvcAppLiveDeployment({ deploymentId: d1 })).activity).toMatchObject({ status: 'ACTIVITY_STATUS_COMPLETED', result: { updateTvcAppLiveDeploymentResult: {} } });
    expect((await root().getTvcApp({ tvcAppId: appId })).tvcApp.liveDeploymentId).toBe(d1);
    expect((await root().updateTvcAppLiveDeployment({ deploymentId: d1 })).activity.status).toBe('ACTIVITY_STATUS_COMPLETED');
  });

  it('switches live to another approved deployment (two approvals in one request)', async () => {
    d2 = (await root().createTvcDeployment(deploymentParams(1_700_000_002))).deploymentId;
    const manifest = await manifestOf(d2);
    const r = await root().createTvcManifestApprovals({
      manifestId: (await deployment(d2)).manifest.id,
      approvals: [
        { operatorId: operatorIds[1]!, signature: ops[1]!.sign(manifest) },
        { operatorId: operatorIds[2]!, signature: ops[2]!.sign(manifest) },
      ],
    });
    expect(r.approvalIds).toHaveLength(2);
    await root().updateTvcAppLiveDeployment({ deploymentId: d2 });
    expect((await root().getTvcApp({ tvcAppId: appId })).tvcApp.liveDeploymentId).toBe(d2);
  });

  it('refuses deleting the live deployment', async () => {
    expect((await refusal(root().deleteTvcDeployment({ deploymentId: d2 }))).message).toMatch(/live: set another deployment live first/);
    expect((await deployment(d2)).delete).toBe(false);
  });

  it('deletes a deployment that is not live; a deleted one cannot be deleted again, go live or be approved', async () => {
    expect(await root().deleteTvcDeployment({ deploymentId: d1 })).toMatchObject({ deploymentId: d1 });
    expect((await deployment(d1)).delete).toBe(true);
    expect((await refusal(root().deleteTvcDeployment({ deploymentId: d1 }))).message).toContain('already deleted');
    expect((await refusal(root().updateTvcAppLiveDeployment({ deploymentId: d1 }))).message).toContain('deleted');
    const late = await refusal(root().createTvcManifestApprovals({ manifestId: m1, approvals: [{ operatorId: operatorIds[1]!, signature: ops[1]!.sign(await manifestOf(d1)) }] }));
    expect(late.message).toMatch(/deleted: restore it/);
    expect((await deployment(d1)).manifestApprovals).toHaveLength(2);
  });

  it('restores a deleted deployment with its approvals holding: it may go live again; restoring twice is refused', async () => {
    expect((await refusal(root().restoreTvcDeployment({ deploymentId: d2 }))).message).toContain('only a deleted deployment can be restored');
    expect(await root().restoreTvcDeployment({ deploymentId: d1 })).toMatchObject({ deploymentId: d1 });
    expect((await deployment(d1)).delete).toBe(false);
    expect((await refusal(root().restoreTvcDeployment({ deploymentId: d1 }))).message).toContain('only a deleted deployment can be restored');
    await root().updateTvcAppLiveDeployment({ deploymentId: d1 });
    expect((await root().getTvcApp({ tvcAppId: appId })).tvcApp.liveDeploymentId).toBe(d1);
  });

  it('an unapproved deployment deleted and restored is still unapproved', async () => {
    d3 = (await root().createTvcDeployment(deploymentParams(1_700_000_003))).deploymentId;
    await root().deleteTvcDeployment({ deploymentId: d3 });
    await root().restoreTvcDeployment({ deploymentId: d3 });
    expect((await refusal(root().updateTvcAppLiveDeployment({ deploymentId: d3 }))).message).toContain('not approved');
  });

  it('lists the app deployments and answers debug logs as an empty list with a note', async () => {
    expect((await root().getTvcAppDeployments({ appId })).tvcDeployments.map((d) => d.id)).toEqual([d1, d2, d3]);
    const logs = (await root().getTvcDeploymentDebugLogs({ deploymentId: d1 })) as { entries: unknown[]; note?: string };
    expect(logs.entries).toEqual([]);
    expect(logs.note).toContain('not in debug mode');
  });

  it('delete_tvc_app_and_deployments takes the app and all its deployments, the live one too', async () => {
    expect(await root().deleteTvcAppAndDeployments({ appId })).toMatchObject({ appId });
    expect((await refusal(root().getTvcApp({ tvcAppId: appId }))).code).toBe(5);
    expect((await root().getTvcApps({})).tvcApps.map((a) => a.id)).not.toContain(appId);
    for (const id of [d1, d2, d3]) expect((await deployment(id)).delete).toBe(true);
    expect((await refusal(root().restoreTvcDeployment({ deploymentId: d1 }))).message).toContain('app');
    expect((await refusal(root().deleteTvcAppAndDeployments({ appId }))).code).toBe(5);
  });
});

describe('policy', () => {
  it('TVC_APP and TVC_DEPLOYMENT are policy resources: a member may submit approvals (TVC_DEPLOYMENT UPDATE) only where a policy allows, and nothing else', async () => {
    const member = await e2e.member('tvc-relay');
    const mine = e2e.sdk(member.key);
    const set = (name: string, op: TOperatorKey) => ({ name, threshold: 1, newOperators: [{ name, publicKey: op.publicKey }] });
    const op = operatorKey();
    expect((await refusal(mine.createTvcApp({ name: 'm', quorumPublicKey: 'ab', manifestSetParams: set('m', op), shareSetParams: set('s', operatorKey()) }))).code).toBe(7);

    const app = await root().createTvcApp({ name: uniqueName('tvc-policy'), quorumPublicKey: 'ab', manifestSetParams: set('m', op), shareSetParams: set('s', operatorKey()) });
    const { deploymentId, manifestId } = await root().createTvcDeployment({ ...deploymentParams(1_700_000_100), appId: app.appId });
    const approval = { operatorId: app.manifestSetOperatorIds[0]!, signature: op.sign(await manifestOf(deploymentId)) };
    expect((await refusal(mine.createTvcManifestApprovals({ manifestId, approvals: [approval] }))).code).toBe(7);
    expect((await deployment(deploymentId)).manifestApprovals).toEqual([]);

    await root().createPolicy({
      policyName: uniqueName('tvc-relay'),
      effect: 'EFFECT_ALLOW',
      notes: 'the relay may hand in operator approvals',
      consensus: `approvers.any(user, user.id == '${member.userId}')`,
      condition: "activity.resource == 'TVC_DEPLOYMENT' && activity.action == 'UPDATE'",
    });
    expect((await mine.createTvcManifestApprovals({ manifestId, approvals: [approval] })).approvalIds).toHaveLength(1);
    expect((await refusal(mine.createTvcDeployment({ ...deploymentParams(1_700_000_101), appId: app.appId }))).code).toBe(7);
    expect((await refusal(mine.updateTvcAppLiveDeployment({ deploymentId }))).code).toBe(7);
    await root().updateTvcAppLiveDeployment({ deploymentId });
  });
});

describe('every TVC method of sdk-server answers', () => {
  it('no route is missing', async () => {
    const client = root() as unknown as Record<string, (input: object) => Promise<unknown>>;
    const methods = Object.keys(client).filter((k) => /Tvc/.test(k) && !k.startsWith('stamp'));
    expect(methods.sort()).toEqual(
      [
        'createTvcApp', 'createTvcDeployment', 'createTvcManifestApprovals', 'deleteTvcAppAndDeployments', 'deleteTvcDeployment', 'getTvcApp', 'getTvcAppDeployments', 'getTvcApps',
        'getTvcDeployment', 'getTvcDeploymentDebugLogs', 'getTvcQosVersions', 'restoreTvcDeployment', 'updateTvcAppLiveDeployment', 'validateTvcImage',
      ].sort(),
    );
    for (const m of methods) {
      try {
        await client[m]!({});
      } catch (e) {
        // An empty body is refused by the route's own schema (400) or lookup (404 naming the field), never as an unknown endpoint.
        expect((e as Error).message, m).not.toMatch(/no such endpoint|unknown (activity|query) endpoint/);
        expect([3, 5], `${m}: ${(e as Error).message}`).toContain((e as { code?: number }).code);
      }
    }
  });
});
