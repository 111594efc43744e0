/**
 * create_tvc_deployment — a deployment of an app and its manifest. The manifest (canonical JSON,
 * `buildManifest`) and its id (SHA-256 of its bytes) are what operators approve; the deployment
 * starts CREATED and may go live once approved. The encrypted pull secret is sealed by the key
 * vault under the deployment's id and never returned (`hasPullSecret` says it exists).
 *
 * Refused (400 naming the field, nothing written): a QuorumOS version this installation does not
 * accept (LATCHKEY_TVC_QOS_VERSIONS), debug mode on an app that does not allow debug deployments,
 * and a manifest identical to an existing one (same app, nonce and contents) — its approvals would
 * otherwise count for both; a different nonce makes a new manifest.
 */
import { newId } from '@latchkey/crypto';
import { AppError, CREATE_TVC_DEPLOYMENT_ACTIVITY, DEFAULT_TVC_QOS_VERSIONS, ZCreateTvcDeploymentIntentSchema, type TCreateTvcDeploymentIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { tvcPullSecretAad } from '../../keys/vault-aad.js';
import { buildManifest, liveApp, operatorSetsOf } from './tvc-shared.js';

export const createTvcDeployment: TActivityDefinition<TCreateTvcDeploymentIntent, { deploymentId: string; manifestId: string }> = {
  ...CREATE_TVC_DEPLOYMENT_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateTvcDeploymentIntentSchema,
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    const accepted = ctx.services.tvc?.qosVersions ?? DEFAULT_TVC_QOS_VERSIONS;
    if (!accepted.includes(p.qosVersion)) throw new AppError('BAD_REQUEST', `qosVersion ${p.qosVersion} is not one this installation accepts (${accepted.join(', ')}; see get_tvc_qos_versions)`, { field: 'qosVersion' });
    const app = await liveApp(tvc, ctx.organizationId, p.appId, 'appId');
    const debugMode = p.debugMode ?? false;
    if (debugMode && !app.enableDebugModeDeployments) {
      throw new AppError('BAD_REQUEST', `debugMode: app ${app.id} was created without enableDebugModeDeployments, so its deployments cannot run in debug mode`, { field: 'debugMode' });
    }
    const { sets, operators } = await operatorSetsOf(tvc, ctx.organizationId, [app]);
    const nonce = p.nonce ?? Math.floor(ctx.now.getTime() / 1000);
    const { manifest, manifestId } = buildManifest({
      app,
      manifestSet: sets.get(app.manifestSetId)!,
      shareSet: sets.get(app.shareSetId)!,
      operators,
      nonce,
      qosVersion: p.qosVersion,
      pivotContainerImageUrl: p.pivotContainerImageUrl,
      pivotPath: p.pivotPath,
      pivotArgs: p.pivotArgs,
      expectedPivotDigest: p.expectedPivotDigest,
      debugMode,
      healthCheckType: p.healthCheckType,
      healthCheckPort: p.healthCheckPort,
      publicIngressPort: p.publicIngressPort,
    });
    if (await tvc.manifestExists(manifestId)) {
      throw new AppError('BAD_REQUEST', `a deployment with this exact manifest (${manifestId}) exists already; give another nonce to make a new one`, { field: 'nonce', manifestId });
    }
    const deploymentId = newId();
    const secret = p.pivotContainerEncryptedPullSecret;
    await tvc.createDeployment(
      {
        id: deploymentId,
        organizationId: ctx.organizationId,
        appId: app.id,
        manifestId,
        qosVersion: p.qosVersion,
        pivotContainerImageUrl: p.pivotContainerImageUrl,
        pivotPath: p.pivotPath,
        pivotArgs: p.pivotArgs,
        expectedPivotDigest: p.expectedPivotDigest,
        nonce,
        sealedPullSecret: secret ? ctx.vault.seal(new TextEncoder().encode(secret), tvcPullSecretAad(deploymentId)) : null,
        debugMode,
        healthCheckType: p.healthCheckType,
        healthCheckPort: p.healthCheckPort,
        publicIngressPort: p.publicIngressPort,
        replicas: p.replicas ?? null,
        instanceSizeCpus: p.instanceSizeCpus ?? null,
        instanceSizeRam: p.instanceSizeRam ?? null,
      },
      manifest,
      ctx.now,
    );
    return { deploymentId, manifestId };
  },
};
