/**
 * What create_webhook_endpoint and update_webhook_endpoint both check: where the URL may point
 * (resolved now, and again by the worker at every attempt) and which event types this
 * organization may subscribe to.
 */
import { resolveWebhookDestination, WebhookUrlError } from '@latchkey/crypto';
import { AppError, BILLING_ORGANIZATION_WEBHOOK_EVENT_TYPES } from '@latchkey/domain';
import type { TRepositories } from '@latchkey/persistence';
import type { TEngineServices } from '../../engine/services.js';

/**
 * Resolves the URL and checks every address it names (the switch LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS
 * comes from the platform through `services.webhookUrls`).
 * @throws AppError BAD_REQUEST (field `url`) with the URL policy's message, which names the switch
 *   when it would have allowed the URL.
 */
export async function assertWebhookUrl(services: TEngineServices, url: string): Promise<void> {
  const opts = services.webhookUrls ?? { allowInsecure: false };
  try {
    await resolveWebhookDestination(url, opts);
  } catch (e) {
    if (e instanceof WebhookUrlError) throw new AppError('BAD_REQUEST', `url: ${e.message}`, { field: 'url', reason: e.reason });
    throw e;
  }
}

/**
 * Balance and transaction-status events belong to the billing (top-level) organization: a
 * sub-organization is refused them, as Turnkey refuses them (§B1).
 * @throws AppError REQUEST_NOT_AUTHORIZED naming the event types.
 */
export async function assertEventTypesAllowed(tx: TRepositories, organizationId: string, eventTypes: readonly string[]): Promise<void> {
  const billingOnly = [...new Set(eventTypes.filter((t) => BILLING_ORGANIZATION_WEBHOOK_EVENT_TYPES.has(t)))];
  if (billingOnly.length === 0) return;
  const org = await tx.organizations.findById(organizationId);
  if (org?.parentOrganizationId) {
    throw new AppError('REQUEST_NOT_AUTHORIZED', `subscriptions: ${billingOnly.join(', ')} can only be subscribed to by the parent (billing) organization, not by a sub-organization`, {
      field: 'subscriptions',
    });
  }
}

/** @throws AppError NOT_FOUND naming the endpoint. */
export function endpointNotFound(endpointId: string): AppError {
  return new AppError('NOT_FOUND', `webhook endpoint not found: ${endpointId}`, { endpointId });
}
