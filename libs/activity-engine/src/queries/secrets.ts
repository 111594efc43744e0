/**
 * list_secrets: the organization's secrets as `v1SecretMetadata`, newest first, cursor-paged by
 * secret id (`paginationOptions`). Metadata only: a secret leaves the vault through export_secrets.
 */
import { ZListSecretsRequestSchema, type TListSecretsRequest, type TSecretMetadataWire } from '@latchkey/domain';
import type { TQueryDefinition } from './query-definition.js';

export const listSecrets: TQueryDefinition<TListSecretsRequest, { secrets: TSecretMetadataWire[] }> = {
  path: 'list_secrets',
  request: ZListSecretsRequestSchema,
  async handle(ctx, req) {
    const rows = await ctx.store.secrets.list(ctx.organization.id, req.paginationOptions ?? { limit: 10 });
    return {
      secrets: rows.map((r) => ({
        secretId: r.id,
        ...(r.name !== null ? { name: r.name } : {}),
        staticProperties: r.staticProperties.map((p) => ({ key: p.key, value: p.value })),
        createdAtUnixMs: String(r.createdAt.getTime()),
      })),
    };
  },
};
