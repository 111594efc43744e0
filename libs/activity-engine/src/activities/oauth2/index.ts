/** OAuth 2.0 credentials and oauth2_authenticate (X, Discord). One file per kind; this list is the folder's whole registration. */
import { createOauth2Credential } from './create-oauth2-credential.js';
import { updateOauth2Credential } from './update-oauth2-credential.js';
import { deleteOauth2Credential } from './delete-oauth2-credential.js';
import { oauth2Authenticate } from './oauth2-authenticate.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const OAUTH2_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createOauth2Credential,
  updateOauth2Credential,
  deleteOauth2Credential,
  oauth2Authenticate,
];
