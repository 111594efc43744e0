/** Webhooks in persistence: endpoints, the delivery queue and log, signing keys, redelivery. */
export {
  webhookEndpointRepository,
  type TNewWebhookEndpoint,
  type TWebhookEndpointChanges,
  type TWebhookEndpointData,
  type TWebhookEndpointRepository,
  type TWebhookSubscriptionData,
} from '../repositories/webhook-endpoint-repository.js';
export {
  LEGACY_WEBHOOK_FEATURE,
  WEBHOOK_CHANNEL,
  legacyWebhookEndpointId,
  webhookDeliveryRepository,
  type TAfterRun,
  type TAttemptOutcome,
  type TClaimedWebhookMessage,
  type TDeliveryLogEntry,
  type TRecordEntry,
  type TRedeliverTarget,
  type TWebhookBodyOf,
  type TWebhookDeliveryRepository,
  type TWebhookMessageRow,
  type TWebhookMessageStatus,
} from '../repositories/webhook-delivery-repository.js';
export { webhookSigningKeyRepository, type TWebhookSigningKeyRepository, type TWebhookSigningKeyRow } from '../repositories/webhook-signing-key-repository.js';
export { DEFAULT_WEBHOOK_KEY_GRACE_MS, ensureWebhookSigningKey, openWebhookSigner, rotateWebhookSigningKey, webhookJwksDocument, webhookSigningKeyAad } from './webhook-signing-keys.js';
export { webhookBodyOf } from './activity-webhook-body.js';
export { redeliver } from './redeliver.js';
export { listenForWebhookWork, type TWebhookWakeup, type TWebhookWakeups } from './webhook-wakeups.js';
