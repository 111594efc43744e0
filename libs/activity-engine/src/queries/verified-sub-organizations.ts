/**
 * list_verified_suborgs (`v1GetVerifiedSubOrgIdsRequest`) — like list_suborgs, but a sub-
 * organization matches only through a contact its user *proved*: an e-mail or phone number a
 * verification token vouched for at sign-up (create_sub_organization with `verificationToken`) or
 * at an OTP login (otp_login, an attested stamp_login). A user merely created with an address
 * someone typed is not found, so an OTP login cannot be steered into an account that only claims
 * the address (sdk-server's getOrCreateSuborg and the auth proxy's /v1/account rely on this).
 * Without a filter: every sub-organization with at least one verified contact. Paged by id.
 */
import { ZListVerifiedSubOrgsRequestSchema, type TListSubOrgsResponse, type TListVerifiedSubOrgsRequest } from '@latchkey/domain';
import type { TSubOrganizationFilter } from '@latchkey/persistence';
import type { TQueryDefinition } from './query-definition.js';
import { listSubOrganizationIds } from './sub-organizations.js';

function filterOf(req: TListVerifiedSubOrgsRequest): TSubOrganizationFilter {
  if (req.filterType === undefined || req.filterValue === undefined) return { by: 'VERIFIED_ANY' };
  return { by: req.filterType === 'EMAIL' ? 'VERIFIED_EMAIL' : 'VERIFIED_PHONE_NUMBER', value: req.filterValue };
}

export const listVerifiedSubOrgs: TQueryDefinition<TListVerifiedSubOrgsRequest, TListSubOrgsResponse> = {
  path: 'list_verified_suborgs',
  request: ZListVerifiedSubOrgsRequestSchema,
  async handle(ctx, req) {
    return { organizationIds: await listSubOrganizationIds(ctx, 'list_verified_suborgs', req.paginationOptions, () => filterOf(req)) };
  },
};
