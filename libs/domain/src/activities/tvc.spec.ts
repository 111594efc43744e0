/** The TVC schemas' refusals name the field, and LATCHKEY_TVC_QOS_VERSIONS is read strictly. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_TVC_QOS_VERSIONS, ZCreateTvcDeploymentIntentSchema, ZCreateTvcManifestApprovalsIntentSchema, ZTvcOperatorParamsSchema, readTvcQosVersions } from './tvc.js';

const deployment = {
  appId: 'app',
  qosVersion: 'v0.5.0',
  pivotContainerImageUrl: `ghcr.io/a/b@sha256:${'0'.repeat(64)}`,
  pivotPath: '/app',
  pivotArgs: ['--x'],
  expectedPivotDigest: 'AB'.repeat(32),
  healthCheckType: 'TVC_HEALTH_CHECK_TYPE_HTTP',
  healthCheckPort: 8080,
  publicIngressPort: 443,
};
const issuePaths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) => r.error?.issues.map((i) => i.path.join('.')) ?? [];

describe('TVC schemas', () => {
  it('accepts a deployment and lower-cases its digest', () => {
    expect(ZCreateTvcDeploymentIntentSchema.parse(deployment).expectedPivotDigest).toBe('ab'.repeat(32));
  });

  it('names each bad deployment field', () => {
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, pivotContainerImageUrl: 'https://x/y' }))).toEqual(['pivotContainerImageUrl']);
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, expectedPivotDigest: 'abc' }))).toEqual(['expectedPivotDigest']);
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, healthCheckType: 'TCP' }))).toEqual(['healthCheckType']);
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, healthCheckPort: 0 }))).toEqual(['healthCheckPort']);
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, nonce: -1 }))).toEqual(['nonce']);
    expect(issuePaths(ZCreateTvcDeploymentIntentSchema.safeParse({ ...deployment, nonce: 1.5 }))).toEqual(['nonce']);
  });

  it('takes operator keys uncompressed only, and approvals as hex', () => {
    expect(ZTvcOperatorParamsSchema.safeParse({ name: 'a', publicKey: `02${'a'.repeat(64)}` }).success).toBe(false);
    expect(ZTvcOperatorParamsSchema.parse({ name: 'a', publicKey: `04${'A'.repeat(128)}` }).publicKey).toBe(`04${'a'.repeat(128)}`);
    expect(issuePaths(ZCreateTvcManifestApprovalsIntentSchema.safeParse({ manifestId: 'm', approvals: [{ operatorId: 'o', signature: 'xyz' }] }))).toEqual(['approvals.0.signature']);
    expect(issuePaths(ZCreateTvcManifestApprovalsIntentSchema.safeParse({ manifestId: 'm', approvals: [] }))).toEqual(['approvals']);
  });
});

describe('readTvcQosVersions', () => {
  it('defaults, trims and keeps the order (first = latest)', () => {
    expect(readTvcQosVersions({})).toEqual(DEFAULT_TVC_QOS_VERSIONS);
    expect(readTvcQosVersions({ LATCHKEY_TVC_QOS_VERSIONS: ' ' })).toEqual(DEFAULT_TVC_QOS_VERSIONS);
    expect(readTvcQosVersions({ LATCHKEY_TVC_QOS_VERSIONS: 'v2, v1' })).toEqual(['v2', 'v1']);
  });

  it('refuses an empty entry, a bad one or a repeat, naming the variable', () => {
    expect(() => readTvcQosVersions({ LATCHKEY_TVC_QOS_VERSIONS: 'v1,,v2' })).toThrow(/LATCHKEY_TVC_QOS_VERSIONS: "" is not a version/);
    expect(() => readTvcQosVersions({ LATCHKEY_TVC_QOS_VERSIONS: 'v 1' })).toThrow(/LATCHKEY_TVC_QOS_VERSIONS/);
    expect(() => readTvcQosVersions({ LATCHKEY_TVC_QOS_VERSIONS: 'v1,v1' })).toThrow(/twice/);
  });
});
