/**
 * create_tvc_app — a TVC app: its name, quorum public key, and two operator sets, each given by
 * the id of an existing set or created from params (new operators with their P-256 keys, existing
 * operators by id, and a threshold). The manifest set's threshold of operators must approve a
 * deployment before it may go live; the share set holds the quorum key's shares (Latchkey keeps
 * the set, it holds no shares). Nothing about the app can change afterwards: a different set of
 * approvers is a new app.
 */
import { isUncompressedP256PublicKey, newId } from '@latchkey/crypto';
import { AppError, CREATE_TVC_APP_ACTIVITY, ZCreateTvcAppIntentSchema, type TCreateTvcAppIntent, type TTvcOperatorSetParams } from '@latchkey/domain';
import type { TActivityContext, TActivityDefinition } from '../../engine/activity-definition.js';

interface TCreateTvcAppResult extends Record<string, unknown> {
  appId: string;
  manifestSetId: string;
  manifestSetOperatorIds: string[];
  manifestSetThreshold: number;
  shareSetId: string;
  shareSetOperatorIds: string[];
  shareSetThreshold: number;
}

type TSetField = 'manifestSet' | 'shareSet';

/** Stateless checks of one set: by id or by params, a threshold its members can meet, keys on the curve, nobody twice. */
function validateSet(p: TCreateTvcAppIntent, which: TSetField): void {
  const id = p[`${which}Id`];
  const params = p[`${which}Params`];
  if ((id === undefined) === (params === undefined)) {
    throw new AppError('BAD_REQUEST', `give exactly one of ${which}Id (an existing operator set) and ${which}Params (a new one)`, { field: id === undefined ? `${which}Params` : `${which}Id` });
  }
  if (!params) return;
  const field = `${which}Params`;
  const members = (params.newOperators?.length ?? 0) + (params.existingOperatorIds?.length ?? 0);
  if (members === 0) throw new AppError('BAD_REQUEST', `${field}: an operator set needs at least one operator (newOperators or existingOperatorIds)`, { field: `${field}.newOperators` });
  if (params.threshold > members) throw new AppError('BAD_REQUEST', `${field}.threshold: ${params.threshold} exceeds the set's ${members} operators`, { field: `${field}.threshold` });
  const keys = new Set<string>();
  params.newOperators?.forEach((op, i) => {
    if (!isUncompressedP256PublicKey(op.publicKey)) throw new AppError('BAD_REQUEST', `${field}.newOperators.${i}.publicKey is not a point on P-256`, { field: `${field}.newOperators.${i}.publicKey` });
    if (keys.has(op.publicKey)) throw new AppError('BAD_REQUEST', `${field}.newOperators.${i}.publicKey is listed twice`, { field: `${field}.newOperators.${i}.publicKey` });
    keys.add(op.publicKey);
  });
  const ids = new Set<string>();
  params.existingOperatorIds?.forEach((id, i) => {
    if (ids.has(id)) throw new AppError('BAD_REQUEST', `${field}.existingOperatorIds.${i}: ${id} is listed twice`, { field: `${field}.existingOperatorIds.${i}` });
    ids.add(id);
  });
}

/** The set's id and members: an existing set of the organization, or a new one with its new operators. */
async function resolveSet(ctx: TActivityContext, which: TSetField, id: string | undefined, params: TTvcOperatorSetParams | undefined): Promise<{ id: string; operatorIds: string[]; threshold: number }> {
  const tvc = ctx.tx.tvc;
  if (id !== undefined) {
    const [set] = await tvc.findOperatorSets(ctx.organizationId, [id]);
    if (!set) throw new AppError('NOT_FOUND', `no TVC operator set ${id} in organization ${ctx.organizationId}`, { field: `${which}Id` });
    return { id: set.id, operatorIds: set.operatorIds, threshold: set.threshold };
  }
  const p = params!;
  const existingIds = p.existingOperatorIds ?? [];
  const existing = new Map((await tvc.findOperators(ctx.organizationId, existingIds)).map((o) => [o.id, o]));
  existingIds.forEach((opId, i) => {
    if (!existing.has(opId)) throw new AppError('NOT_FOUND', `no TVC operator ${opId} in organization ${ctx.organizationId}`, { field: `${which}Params.existingOperatorIds.${i}` });
  });
  const created = (p.newOperators ?? []).map((op) => ({ id: newId(), organizationId: ctx.organizationId, name: op.name, publicKey: op.publicKey }));
  // One key must not count twice towards a threshold, whether new or existing.
  const keys = new Set(created.map((o) => o.publicKey));
  existingIds.forEach((opId, i) => {
    const key = existing.get(opId)!.publicKey;
    if (keys.has(key)) throw new AppError('BAD_REQUEST', `${which}Params.existingOperatorIds.${i}: operator ${opId} has the same public key as another member of the set`, { field: `${which}Params.existingOperatorIds.${i}` });
    keys.add(key);
  });
  await tvc.createOperators(created, ctx.now);
  const set = { id: newId(), organizationId: ctx.organizationId, name: p.name, threshold: p.threshold, operatorIds: [...created.map((o) => o.id), ...existingIds] };
  await tvc.createOperatorSet(set, ctx.now);
  return set;
}

export const createTvcApp: TActivityDefinition<TCreateTvcAppIntent, TCreateTvcAppResult> = {
  ...CREATE_TVC_APP_ACTIVITY,
  onFailure: 'reject',
  params: ZCreateTvcAppIntentSchema,
  validate(p) {
    validateSet(p, 'manifestSet');
    validateSet(p, 'shareSet');
  },
  async handle(ctx, p) {
    const manifestSet = await resolveSet(ctx, 'manifestSet', p.manifestSetId, p.manifestSetParams);
    const shareSet = await resolveSet(ctx, 'shareSet', p.shareSetId, p.shareSetParams);
    const appId = newId();
    await ctx.tx.tvc.createApp(
      {
        id: appId,
        organizationId: ctx.organizationId,
        name: p.name,
        quorumPublicKey: p.quorumPublicKey,
        manifestSetId: manifestSet.id,
        shareSetId: shareSet.id,
        enableEgress: p.enableEgress ?? false,
        enableDebugModeDeployments: p.enableDebugModeDeployments ?? false,
      },
      ctx.now,
    );
    return {
      appId,
      manifestSetId: manifestSet.id,
      manifestSetOperatorIds: manifestSet.operatorIds,
      manifestSetThreshold: manifestSet.threshold,
      shareSetId: shareSet.id,
      shareSetOperatorIds: shareSet.operatorIds,
      shareSetThreshold: shareSet.threshold,
    };
  },
};
