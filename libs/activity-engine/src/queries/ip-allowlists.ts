/**
 * get_ip_allowlist: the organization-level IP allowlist (`publicKey` absent), or one API key's, as
 * `v1IpAllowlist`. An organization without one answers an empty, disabled list (nothing is
 * enforced); an API key without one is a 404, since a key's list exists only to be enforced.
 */
import { AppError, ZGetIpAllowlistRequestSchema, type TGetIpAllowlistRequest, type TIpAllowlistWire } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';

export const getIpAllowlist: TQueryDefinition<TGetIpAllowlistRequest, { allowlist: TIpAllowlistWire }> = {
  path: 'get_ip_allowlist',
  request: ZGetIpAllowlistRequestSchema,
  async handle(ctx, req) {
    const key = req.publicKey?.toLowerCase();
    const row = await ctx.store.ipAllowlists.find(ctx.organization.id, key);
    if (!row) {
      if (key !== undefined) throw new AppError('NOT_FOUND', `no IP allowlist for API key ${key} in organization ${ctx.organization.id}`, { field: 'publicKey' });
      return { allowlist: { organizationId: ctx.organization.id, rules: [], enabled: false, onEvaluationError: 'DENY' } };
    }
    const rules = row.rules.map((r) => ({ cidr: r.cidr, ...(r.label !== undefined ? { label: r.label } : {}), createdAt: r.createdAt }));
    return {
      allowlist: {
        organizationId: row.organizationId,
        rules,
        ...(key !== undefined ? { publicKey: row.publicKey } : { enabled: row.enabled }),
        onEvaluationError: row.onEvaluationError,
      },
    };
  },
};
