/**
 * create_authenticators (V2) — passkeys for a user, each attestation verified (`none`, `packed`,
 * `fido-u2f`, `tpm`; ES256) against its challenge and, when FEATURE_NAME_WEBAUTHN_ORIGINS is set,
 * the allowed origins; the COSE key is stored as compressed P-256 with its aaguid, attestation
 * format, transports and signature counter. delete_authenticators removes them (they stop
 * authenticating at once, in every process).
 */
import { AppError, ZDeleteAuthenticatorsIntentSchema, type TDeleteAuthenticatorsIntent, DELETE_AUTHENTICATORS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists } from '../../identity/add-user-credentials.js';

export const deleteAuthenticators: TActivityDefinition<TDeleteAuthenticatorsIntent, { authenticatorIds: string[] }> = {
  ...DELETE_AUTHENTICATORS_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZDeleteAuthenticatorsIntentSchema,
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const wanted = [...new Set(p.authenticatorIds)];
    const deleted = await ctx.tx.credentials.deleteAuthenticators(ctx.organizationId, p.userId, wanted, ctx.now);
    const missing = wanted.filter((id) => !deleted.includes(id));
    if (missing.length > 0) throw new AppError('NOT_FOUND', `authenticators not found for user ${p.userId}: ${missing.join(', ')}`, { authenticatorIds: missing });
    await ctx.tx.notifyChange('credential', p.userId);
    return { authenticatorIds: wanted };
  },
};
