/** Sub-organizations, organization features and the root quorum. One file per kind; this list is the folder's whole registration. */
import { createSubOrganization } from './create-sub-organization.js';
import { deleteSubOrganization } from './delete-sub-organization.js';
import { setOrganizationFeature } from './set-organization-feature.js';
import { removeOrganizationFeature } from './remove-organization-feature.js';
import { updateRootQuorum } from './update-root-quorum.js';
import { updateOrganizationName } from './update-organization-name.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const ORGANIZATIONS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createSubOrganization,
  deleteSubOrganization,
  setOrganizationFeature,
  removeOrganizationFeature,
  updateRootQuorum,
  updateOrganizationName,
];
