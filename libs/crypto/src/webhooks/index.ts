/** Webhooks: signing of deliveries (§B2–B3), the JWKS document (§B4), and where a webhook may go. */
export {
  WEBHOOK_HEADERS,
  WEBHOOK_SIGNATURE_ALGORITHM,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_VERSION,
  createWebhookSigner,
  signWebhook,
  webhookHeaders,
  webhookSignedInput,
  type TSignWebhookParams,
  type TWebhookHeadersParams,
  type TWebhookSigner,
} from './sign-webhook.js';
export { WEBHOOK_JWKS_CACHE_CONTROL, buildWebhookJwks, generateWebhookSigningKey, webhookJwk, type TNewWebhookSigningKey, type TWebhookJwk } from './webhook-jwks.js';
export {
  ALLOW_INSECURE_URLS_VARIABLE,
  WebhookUrlError,
  classifyAddress,
  parseWebhookUrl,
  pinnedLookup,
  readAllowInsecureWebhookUrls,
  resolveWebhookDestination,
  type TAddressClass,
  type TResolver,
  type TWebhookDestination,
  type TWebhookUrlErrorReason,
  type TWebhookUrlOptions,
} from './webhook-url.js';
