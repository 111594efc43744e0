/** A user's credentials: API keys, passkeys (authenticators) and OAuth providers. One file per kind; this list is the folder's whole registration. */
import { createApiKeys } from './create-api-keys.js';
import { deleteApiKeys } from './delete-api-keys.js';
import { createAuthenticators } from './create-authenticators.js';
import { deleteAuthenticators } from './delete-authenticators.js';
import { createOauthProviders } from './create-oauth-providers.js';
import { deleteOauthProviders } from './delete-oauth-providers.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const CREDENTIALS_ACTIVITIES: readonly TAnyActivityDefinition[] = [
  createApiKeys,
  deleteApiKeys,
  createAuthenticators,
  deleteAuthenticators,
  createOauthProviders,
  deleteOauthProviders,
];
