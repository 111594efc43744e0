/** Webhook endpoints. One file per kind; this list is the folder's whole registration. */
import { createWebhookEndpoint } from './create-webhook-endpoint.js';
import { updateWebhookEndpoint } from './update-webhook-endpoint.js';
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.js';
import type { TAnyActivityDefinition } from '../../engine/activity-definition.js';

export const WEBHOOKS_ACTIVITIES: readonly TAnyActivityDefinition[] = [createWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint];
