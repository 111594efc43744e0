/**
 * set_ip_allowlist — creates or changes the organization-level IP allowlist (`publicKey` absent)
 * or one API key's. A field given replaces the stored one; omitted keeps it (a new list: enabled,
 * no rules, DENY on evaluation errors). A rule already present keeps its `createdAt`.
 *
 * A list that would shut out the very request setting it is refused (400, nothing written): the
 * organization-level list, enabled, or the list of the key that signs the request, must let the
 * request's own client address through. Locking oneself out must be a deliberate second step (set
 * the list from an address it allows), not a typo. An activity approved by a vote is checked
 * against the address of the deciding vote.
 */
import { AppError, SET_IP_ALLOWLIST_ACTIVITY, ZSetIpAllowlistIntentSchema, type TSetIpAllowlistIntent } from '@latchkey/domain';
import type { TIpAllowlistRow } from '@latchkey/persistence';
import { exposeParams } from '@latchkey/policy';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { allowlistAdmits } from '../../engine/ip-allowlist.js';
import { assertApiKeyOfOrganization } from './ip-allowlists-shared.js';

export const setIpAllowlist: TActivityDefinition<TSetIpAllowlistIntent, Record<string, never>> = {
  ...SET_IP_ALLOWLIST_ACTIVITY,
  onFailure: 'reject',
  params: ZSetIpAllowlistIntentSchema,
  policyParams: exposeParams({ publicKey: 'public_key', enabled: 'enabled', onEvaluationError: 'on_evaluation_error' }),
  validate(p) {
    if (p.publicKey !== undefined && p.enabled !== undefined) {
      throw new AppError('BAD_REQUEST', 'enabled applies only to the organization-level allowlist; omit it for an API key allowlist (its presence enables it)', { field: 'enabled' });
    }
    const seen = new Set<string>();
    p.rules?.forEach((r, i) => {
      if (seen.has(r.cidr)) throw new AppError('BAD_REQUEST', `rules.${i}.cidr: ${r.cidr} is listed twice`, { field: `rules.${i}.cidr` });
      seen.add(r.cidr);
    });
  },
  async handle(ctx, p) {
    const publicKey = p.publicKey === undefined ? '' : await assertApiKeyOfOrganization(ctx, p.publicKey);
    const stored = await ctx.tx.ipAllowlists.find(ctx.organizationId, publicKey === '' ? undefined : publicKey);
    const at = String(ctx.now.getTime());
    const next: TIpAllowlistRow = {
      organizationId: ctx.organizationId,
      publicKey,
      enabled: publicKey === '' ? (p.enabled ?? stored?.enabled ?? true) : true,
      onEvaluationError: p.onEvaluationError ?? stored?.onEvaluationError ?? 'DENY',
      rules:
        p.rules === undefined
          ? (stored?.rules ?? [])
          : p.rules.map((r) => ({ cidr: r.cidr, ...(r.label !== undefined ? { label: r.label } : {}), createdAt: stored?.rules.find((s) => s.cidr === r.cidr)?.createdAt ?? at })),
    };
    const signer = ctx.principal.credential;
    const guardsThisRequest =
      ctx.principal.organizationId === ctx.organizationId &&
      (publicKey === '' ? next.enabled : signer.kind === 'api-key' && signer.publicKey.toLowerCase() === publicKey);
    if (guardsThisRequest && !allowlistAdmits(next, ctx.clientAddress)) {
      const which = publicKey === '' ? 'the organization-level allowlist' : 'the allowlist of the API key signing this request';
      throw new AppError(
        'BAD_REQUEST',
        `refused: ${which} would shut out the address this request comes from${ctx.clientAddress ? ` (${ctx.clientAddress})` : ''}; add a rule that covers it, or set the list from an address it allows`,
        { field: 'rules', clientAddress: ctx.clientAddress ?? null },
      );
    }
    await ctx.tx.ipAllowlists.upsert(next, ctx.now);
    await ctx.tx.notifyChange('ip-allowlist', ctx.organizationId);
    return {};
  },
};
