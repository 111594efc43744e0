/**
 * create_tvc_manifest_approvals — operators' approvals of a deployment's manifest, accepted under
 * both type names (`ACTIVITY_TYPE_CREATE_TVC_MANIFEST_APPROVALS`, Turnkey's SDK;
 * `ACTIVITY_TYPE_APPROVE_TVC_DEPLOYMENT`, the seed spec). Each approval is checked before any is
 * written: the operator must be a member of the app's manifest set, must not have approved this
 * manifest already nor appear twice in the request, and its signature must be ECDSA P-256/SHA-256
 * (DER, hex) over the manifest's exact bytes by that operator's key. One bad approval refuses the
 * request (400 naming it) and nothing is written. When the approvals reach the manifest set's
 * threshold the deployment is APPROVED and may go live.
 *
 * Who submits the activity is the policy engine's concern (resource TVC_DEPLOYMENT, action
 * UPDATE); what counts towards the threshold is only the operators' signatures. Approvals of one
 * deployment are counted under its row lock, so two requests each carrying the last missing
 * approval cannot both miss the threshold.
 */
import { verifyManifestApproval, newId } from '@latchkey/crypto';
import { AppError, CREATE_TVC_MANIFEST_APPROVALS_ACTIVITY, ZCreateTvcManifestApprovalsIntentSchema, type TCreateTvcManifestApprovalsIntent } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { deploymentStateOf, nextDeploymentState } from './deployment-state.js';
import { deploymentWithApp } from './tvc-shared.js';

export const createTvcManifestApprovals: TActivityDefinition<TCreateTvcManifestApprovalsIntent, { approvalIds: string[] }> = {
  ...CREATE_TVC_MANIFEST_APPROVALS_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateTvcManifestApprovalsIntentSchema,
  validate(p) {
    const seen = new Set<string>();
    p.approvals.forEach((a, i) => {
      if (seen.has(a.operatorId)) throw new AppError('BAD_REQUEST', `approvals.${i}.operatorId: operator ${a.operatorId} is listed twice`, { field: `approvals.${i}.operatorId` });
      seen.add(a.operatorId);
    });
  },
  async handle(ctx, p) {
    const tvc = ctx.tx.tvc;
    const org = ctx.organizationId;
    // `manifestId` names the manifest; the seed spec describes it as "the deployment to approve", so a deployment id is accepted too.
    const byManifest = await tvc.findDeploymentByManifest(org, p.manifestId);
    const deploymentId = byManifest?.id ?? p.manifestId;
    const found = await tvc.findDeployment(org, deploymentId);
    if (!found) throw new AppError('NOT_FOUND', `no TVC manifest ${p.manifestId} in organization ${org}`, { field: 'manifestId' });
    await tvc.lockDeployment(org, found.id);
    const { deployment, app } = await deploymentWithApp(tvc, org, found.id, 'manifestId');
    const state = deploymentStateOf(deployment, app);
    nextDeploymentState(state, { kind: 'APPROVE', thresholdMet: false }, 'manifestId'); // refuses a deleted deployment

    const [set] = await tvc.findOperatorSets(org, [app.manifestSetId]);
    const members = new Map((await tvc.findOperators(org, set!.operatorIds)).map((o) => [o.id, o]));
    const manifest = (await tvc.findManifest(org, deployment.manifestId))!;
    const bytes = new TextEncoder().encode(manifest.manifest);
    const already = new Set((await tvc.listApprovals(org, [manifest.id])).map((a) => a.operatorId));

    p.approvals.forEach((a, i) => {
      const op = members.get(a.operatorId);
      if (!op) throw new AppError('BAD_REQUEST', `approvals.${i}.operatorId: operator ${a.operatorId} is not a member of the manifest set of app ${app.id}`, { field: `approvals.${i}.operatorId` });
      if (already.has(op.id)) throw new AppError('BAD_REQUEST', `approvals.${i}.operatorId: operator ${op.id} has already approved manifest ${manifest.id}`, { field: `approvals.${i}.operatorId` });
      if (!verifyManifestApproval(op.publicKey, a.signature, bytes)) {
        throw new AppError('BAD_REQUEST', `approvals.${i}.signature is not operator ${op.id}'s P-256 signature (DER, hex) over the bytes of manifest ${manifest.id}`, { field: `approvals.${i}.signature` });
      }
    });

    const rows = p.approvals.map((a) => ({ id: newId(), organizationId: org, manifestId: manifest.id, operatorId: a.operatorId, signature: a.signature.toLowerCase() }));
    await tvc.createApprovals(rows, ctx.now);
    const thresholdMet = already.size + rows.length >= set!.threshold;
    if (nextDeploymentState(state, { kind: 'APPROVE', thresholdMet }, 'manifestId') === 'APPROVED' && state === 'CREATED') await tvc.markApproved(org, deployment.id, ctx.now);
    return { approvalIds: rows.map((r) => r.id) };
  },
};
