/**
 * Wire schemas of the TVC control plane (issue 15 §1): apps with their manifest and share operator
 * sets, deployments and their manifests, operator approvals, the live switch, deletion and
 * restoration, and the TVC queries — with the names of `@turnkey/sdk-types`' `v1…Tvc…` types.
 * Latchkey runs no enclave: it keeps the part a team relies on, which code may run and who
 * approved it. The manifest itself is built by the engine (RFC 8785 canonical JSON).
 */
import { z } from 'zod';
import { defineActivityWire } from '../activity.js';
import { ZIdentifierSchema, type TTimestamp } from '../common.js';
import { parseImageReference } from '../image-reference.js';

/** Operators one set may hold, and so the most approvals one request may carry. */
export const MAX_TVC_OPERATORS_PER_SET = 32;

export const TVC_HEALTH_CHECK_TYPES = ['TVC_HEALTH_CHECK_TYPE_HTTP', 'TVC_HEALTH_CHECK_TYPE_GRPC'] as const;
export type TTvcHealthCheckType = (typeof TVC_HEALTH_CHECK_TYPES)[number];

const name = z.string().trim().min(1, 'must not be empty').max(256, 'must be at most 256 characters');
const hex = (what: string) => z.string().trim().regex(/^(?:[0-9a-fA-F]{2})+$/, `must be ${what} in hex (an even number of hex digits)`);
const port = z.number({ error: 'must be a port number' }).int('must be an integer').min(1, 'must be from 1 to 65535').max(65535, 'must be from 1 to 65535');

/** `v1TvcOperatorParams.publicKey`: an uncompressed P-256 point (the curve check is the engine's). */
export const ZTvcOperatorPublicKeySchema = z
  .string()
  .trim()
  .regex(/^04[0-9a-fA-F]{128}$/, 'must be an uncompressed P-256 public key in hex (04 followed by 128 hex digits)')
  .transform((s) => s.toLowerCase());

/** `v1TvcOperatorParams`. */
export const ZTvcOperatorParamsSchema = z.object({ name, publicKey: ZTvcOperatorPublicKeySchema });

/** `v1TvcOperatorSetParams`: new operators, existing ones, or both; `threshold` of them must approve. */
export const ZTvcOperatorSetParamsSchema = z.object({
  name,
  newOperators: z.array(ZTvcOperatorParamsSchema).max(MAX_TVC_OPERATORS_PER_SET, `must have at most ${MAX_TVC_OPERATORS_PER_SET} operators`).optional(),
  existingOperatorIds: z.array(ZIdentifierSchema).max(MAX_TVC_OPERATORS_PER_SET, `must have at most ${MAX_TVC_OPERATORS_PER_SET} operators`).optional(),
  threshold: z.number({ error: 'must be a number' }).int('must be an integer').min(1, 'must be at least 1').max(MAX_TVC_OPERATORS_PER_SET, `must be at most ${MAX_TVC_OPERATORS_PER_SET}`),
});
export type TTvcOperatorSetParams = z.output<typeof ZTvcOperatorSetParamsSchema>;

/** `v1CreateTvcAppIntent`: each set by id or by params (exactly one of the two, checked by the engine). */
export const ZCreateTvcAppIntentSchema = z.object({
  name,
  quorumPublicKey: hex('a public key').max(1024, 'must be at most 1024 hex digits').transform((s) => s.toLowerCase()),
  manifestSetId: ZIdentifierSchema.optional(),
  manifestSetParams: ZTvcOperatorSetParamsSchema.optional(),
  shareSetId: ZIdentifierSchema.optional(),
  shareSetParams: ZTvcOperatorSetParamsSchema.optional(),
  enableEgress: z.boolean().optional(),
  enableDebugModeDeployments: z.boolean().optional(),
});
export type TCreateTvcAppIntent = z.output<typeof ZCreateTvcAppIntentSchema>;

/** An image reference in the one grammar (`parseImageReference`). */
export const ZTvcImageReferenceSchema = z.string().trim().superRefine((s, ctx) => {
  const parsed = parseImageReference(s);
  if ('error' in parsed) ctx.addIssue({ code: 'custom', message: parsed.error });
});

/** `v1CreateTvcDeploymentIntent`, every field of the seed spec and sdk-types. */
export const ZCreateTvcDeploymentIntentSchema = z.object({
  appId: ZIdentifierSchema,
  qosVersion: z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters'),
  pivotContainerImageUrl: ZTvcImageReferenceSchema,
  pivotPath: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
  pivotArgs: z.array(z.string().max(4096, 'must be at most 4096 characters')).max(256, 'must have at most 256 arguments'),
  expectedPivotDigest: z
    .string()
    .trim()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be the SHA-256 digest of the pivot binary: 64 hex digits')
    .transform((s) => s.toLowerCase()),
  nonce: z.number({ error: 'must be a number' }).int('must be an integer').min(0, 'must not be negative').max(Number.MAX_SAFE_INTEGER, 'must be at most 2^53 - 1').optional(),
  pivotContainerEncryptedPullSecret: z.string().max(65_536, 'must be at most 65536 characters').optional(),
  debugMode: z.boolean().optional(),
  healthCheckType: z.enum(TVC_HEALTH_CHECK_TYPES, { error: `must be one of ${TVC_HEALTH_CHECK_TYPES.join(', ')}` }),
  healthCheckPort: port,
  publicIngressPort: port,
  replicas: z.number().int('must be an integer').min(1, 'must be at least 1').max(64, 'must be at most 64').optional(),
  instanceSizeCpus: z.number().int('must be an integer').min(1, 'must be at least 1').max(256, 'must be at most 256').optional(),
  instanceSizeRam: z.number().int('must be an integer').min(1, 'must be at least 1').max(4096, 'must be at most 4096').optional(),
});
export type TCreateTvcDeploymentIntent = z.output<typeof ZCreateTvcDeploymentIntentSchema>;

/** `v1TvcManifestApproval`: `signature` is DER ECDSA P-256 in hex, over the manifest bytes. */
export const ZTvcManifestApprovalSchema = z.object({
  operatorId: ZIdentifierSchema,
  signature: hex('a DER ECDSA signature').max(200, 'must be at most 200 hex digits (a DER P-256 signature is at most 72 bytes)'),
});

/** `v1CreateTvcManifestApprovalsIntent`: `manifestId` names the manifest (its deployment's id is accepted too). */
export const ZCreateTvcManifestApprovalsIntentSchema = z.object({
  manifestId: ZIdentifierSchema,
  approvals: z
    .array(ZTvcManifestApprovalSchema)
    .min(1, 'must have at least one approval')
    .max(MAX_TVC_OPERATORS_PER_SET, `must have at most ${MAX_TVC_OPERATORS_PER_SET} approvals`),
});
export type TCreateTvcManifestApprovalsIntent = z.output<typeof ZCreateTvcManifestApprovalsIntentSchema>;

/** `v1UpdateTvcAppLiveDeploymentIntent`, `v1DeleteTvcDeploymentIntent`, `v1RestoreTvcDeploymentIntent`. */
export const ZTvcDeploymentIdIntentSchema = z.object({ deploymentId: ZIdentifierSchema });
export type TTvcDeploymentIdIntent = z.output<typeof ZTvcDeploymentIdIntentSchema>;

/** `v1DeleteTvcAppAndDeploymentsIntent`. */
export const ZDeleteTvcAppAndDeploymentsIntentSchema = z.object({ appId: ZIdentifierSchema });
export type TDeleteTvcAppAndDeploymentsIntent = z.output<typeof ZDeleteTvcAppAndDeploymentsIntentSchema>;

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

export const ZGetTvcAppRequestSchema = z.object({ organizationId: ZIdentifierSchema, tvcAppId: ZIdentifierSchema });
export type TGetTvcAppRequest = z.output<typeof ZGetTvcAppRequestSchema>;
export const ZListTvcAppsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TListTvcAppsRequest = z.output<typeof ZListTvcAppsRequestSchema>;
export const ZGetTvcDeploymentRequestSchema = z.object({ organizationId: ZIdentifierSchema, deploymentId: ZIdentifierSchema });
export type TGetTvcDeploymentRequest = z.output<typeof ZGetTvcDeploymentRequestSchema>;
export const ZListTvcAppDeploymentsRequestSchema = z.object({ organizationId: ZIdentifierSchema, appId: ZIdentifierSchema });
export type TListTvcAppDeploymentsRequest = z.output<typeof ZListTvcAppDeploymentsRequestSchema>;
export const ZGetTvcQosVersionsRequestSchema = z.object({ organizationId: ZIdentifierSchema });
export type TGetTvcQosVersionsRequest = z.output<typeof ZGetTvcQosVersionsRequestSchema>;
/** `v1ValidateTvcImageRequest`: the pull secret is accepted and ignored (no registry is contacted). */
export const ZValidateTvcImageRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  pivotContainerImageUrl: ZTvcImageReferenceSchema,
  pivotContainerEncryptedPullSecret: z.string().max(65_536, 'must be at most 65536 characters').optional(),
});
export type TValidateTvcImageRequest = z.output<typeof ZValidateTvcImageRequestSchema>;
export const ZGetTvcDeploymentDebugLogsRequestSchema = z.object({
  organizationId: ZIdentifierSchema,
  deploymentId: ZIdentifierSchema,
  tailLines: z.number().int('must be an integer').min(0, 'must not be negative').optional(),
  sinceSeconds: z.string().regex(/^[0-9]{1,12}$/, 'must be a decimal number of seconds').optional(),
});
export type TGetTvcDeploymentDebugLogsRequest = z.output<typeof ZGetTvcDeploymentDebugLogsRequestSchema>;

// ---------------------------------------------------------------------------------------------
// What the queries answer (sdk-types' v1Tvc… shapes)
// ---------------------------------------------------------------------------------------------

/** `v1TvcOperator`: Latchkey operators have one P-256 key, used for signing and encryption alike. */
export interface TTvcOperatorWire {
  id: string;
  name: string;
  publicKey: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
  encryptPublicKey: string;
  signPublicKey: string;
  keySource: 'EXTERNAL_KEY';
}

/** `v1TvcOperatorSet`. */
export interface TTvcOperatorSetWire {
  id: string;
  name: string;
  organizationId: string;
  operators: TTvcOperatorWire[];
  threshold: number;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** `v1TvcApp`. */
export interface TTvcAppWire {
  id: string;
  organizationId: string;
  name: string;
  quorumPublicKey: string;
  manifestSet: TTvcOperatorSetWire;
  shareSet: TTvcOperatorSetWire;
  enableEgress: boolean;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
  liveDeploymentId?: string;
  publicDomain: string;
  enableDebugModeDeployments: boolean;
}

/** `v1TvcManifest`: `manifest` is the raw UTF-8 JSON text the manifest id hashes. */
export interface TTvcManifestWire {
  id: string;
  manifest: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** `v1TvcOperatorApproval`. */
export interface TTvcOperatorApprovalWire {
  id: string;
  manifestId: string;
  operator: TTvcOperatorWire;
  approval: string;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
}

/** `v1TvcContainerSpec`. */
export interface TTvcContainerSpecWire {
  containerUrl: string;
  path: string;
  args: string[];
  hasPullSecret: boolean;
  healthCheckType: TTvcHealthCheckType;
  healthCheckPort: number;
  publicIngressPort: number;
}

/** `v1TvcDeployment`. */
export interface TTvcDeploymentWire {
  id: string;
  organizationId: string;
  appId: string;
  manifestSet: TTvcOperatorSetWire;
  shareSet: TTvcOperatorSetWire;
  manifest: TTvcManifestWire;
  manifestApprovals: TTvcOperatorApprovalWire[];
  qosVersion: string;
  pivotContainer: TTvcContainerSpecWire;
  createdAt: TTimestamp;
  updatedAt: TTimestamp;
  delete: boolean;
  debugMode: boolean;
  instanceSizeCpus?: number;
  instanceSizeRam?: number;
}

// ---------------------------------------------------------------------------------------------
// Wire names
// ---------------------------------------------------------------------------------------------

export const CREATE_TVC_APP_ACTIVITY = defineActivityWire('create_tvc_app', [
  { type: 'ACTIVITY_TYPE_CREATE_TVC_APP', intentKey: 'createTvcAppIntent', resultKey: 'createTvcAppResult' },
]);

export const CREATE_TVC_DEPLOYMENT_ACTIVITY = defineActivityWire('create_tvc_deployment', [
  { type: 'ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT', intentKey: 'createTvcDeploymentIntent', resultKey: 'createTvcDeploymentResult' },
]);

/**
 * Two type names for one activity: Turnkey's SDK sends `…_CREATE_TVC_MANIFEST_APPROVALS`, the
 * seed spec names `…_APPROVE_TVC_DEPLOYMENT`; both carry the same intent and result keys.
 */
export const CREATE_TVC_MANIFEST_APPROVALS_ACTIVITY = defineActivityWire('create_tvc_manifest_approvals', [
  { type: 'ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS', intentKey: 'createTvcManifestApprovalsIntent', resultKey: 'createTvcManifestApprovalsResult' },
  { type: 'ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT', intentKey: 'createTvcManifestApprovalsIntent', resultKey: 'createTvcManifestApprovalsResult' },
]);

/** `updateTvcAppLiveDeployment` in sdk-server; its result is empty. */
export const SET_TVC_APP_LIVE_DEPLOYMENT_ACTIVITY = defineActivityWire('set_tvc_app_live_deployment', [
  { type: 'ACTIVITY_TYPE_UPDATE_TVC_APP_LIVE_DEPLOYMENT', intentKey: 'updateTvcAppLiveDeploymentIntent', resultKey: 'updateTvcAppLiveDeploymentResult' },
]);

export const DELETE_TVC_DEPLOYMENT_ACTIVITY = defineActivityWire('delete_tvc_deployment', [
  { type: 'ACTIVITY_TYPE_DELETE_TVC_DEPLOYMENT', intentKey: 'deleteTvcDeploymentIntent', resultKey: 'deleteTvcDeploymentResult' },
]);

export const RESTORE_TVC_DEPLOYMENT_ACTIVITY = defineActivityWire('restore_tvc_deployment', [
  { type: 'ACTIVITY_TYPE_RESTORE_TVC_DEPLOYMENT', intentKey: 'restoreTvcDeploymentIntent', resultKey: 'restoreTvcDeploymentResult' },
]);

export const DELETE_TVC_APP_AND_DEPLOYMENTS_ACTIVITY = defineActivityWire('delete_tvc_app_and_deployments', [
  { type: 'ACTIVITY_TYPE_DELETE_TVC_APP_AND_DEPLOYMENTS', intentKey: 'deleteTvcAppAndDeploymentsIntent', resultKey: 'deleteTvcAppAndDeploymentsResult' },
]);

// ---------------------------------------------------------------------------------------------
// Configuration: the QOS versions this installation accepts
// ---------------------------------------------------------------------------------------------

/** The variable, its default and what it does (the README's configuration table mirrors it). */
export const TVC_CONFIG_VARIABLES = {
  LATCHKEY_TVC_QOS_VERSIONS:
    'Comma-separated QuorumOS versions create_tvc_deployment accepts, the recommended (latest) one first; get_tvc_qos_versions answers them. Default v0.5.0,v0.4.0.',
} as const;

export const DEFAULT_TVC_QOS_VERSIONS: readonly string[] = ['v0.5.0', 'v0.4.0'];

/**
 * LATCHKEY_TVC_QOS_VERSIONS from an environment map: distinct versions of letters, digits and
 * `._+-`, the first the recommended one. Unset or empty: `DEFAULT_TVC_QOS_VERSIONS`.
 * @throws Error naming the variable and the entry that is not a version
 */
export function readTvcQosVersions(env: Record<string, string | undefined>): readonly string[] {
  const raw = env['LATCHKEY_TVC_QOS_VERSIONS']?.trim();
  if (!raw) return DEFAULT_TVC_QOS_VERSIONS;
  const list = raw.split(',').map((v) => v.trim());
  for (const v of list) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/.test(v)) throw new Error(`LATCHKEY_TVC_QOS_VERSIONS: ${JSON.stringify(v)} is not a version (letters, digits and . _ + -, at most 64), e.g. v0.5.0,v0.4.0`);
  }
  if (new Set(list).size !== list.length) throw new Error('LATCHKEY_TVC_QOS_VERSIONS lists a version twice');
  return list;
}
