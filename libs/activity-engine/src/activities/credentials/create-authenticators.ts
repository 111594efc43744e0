/**
 * create_authenticators (V2) — passkeys for a user, each attestation verified (`none`, `packed`,
 * `fido-u2f`, `tpm`; ES256) against its challenge and, when FEATURE_NAME_WEBAUTHN_ORIGINS is set,
 * the allowed origins; the COSE key is stored as compressed P-256 with its aaguid, attestation
 * format, transports and signature counter. delete_authenticators removes them (they stop
 * authenticating at once, in every process).
 */
import { ZCreateAuthenticatorsIntentSchema, type TCreateAuthenticatorsIntent, CREATE_AUTHENTICATORS_ACTIVITY } from '@latchkey/domain';
import type { TActivityDefinition } from '../../engine/activity-definition.js';
import { assertUserExists, checkCredentials, writeCredentials } from '../../identity/add-user-credentials.js';

export const createAuthenticators: TActivityDefinition<TCreateAuthenticatorsIntent, { authenticatorIds: string[] }> = {
  ...CREATE_AUTHENTICATORS_ACTIVITY,
  access: { selfService: true },
  onFailure: 'reject',
  params: ZCreateAuthenticatorsIntentSchema,
  async handle(ctx, p) {
    await assertUserExists(ctx, p.userId);
    const org = await ctx.tx.organizations.findById(ctx.organizationId);
    const originOrgs = org?.parentOrganizationId ? [ctx.organizationId, org.parentOrganizationId] : [ctx.organizationId];
    const checked = await checkCredentials(ctx, { authenticators: p.authenticators }, (kind, i) => `${kind}[${i}]`, originOrgs);
    const { authenticatorIds } = await writeCredentials(ctx.tx, ctx.organizationId, p.userId, checked);
    return { authenticatorIds };
  },
};
