/**
 * What every admin procedure sees: the engine (which verifies stamps and runs activities), the
 * read models, and the request exactly as it arrived — its headers and its raw body, over which
 * the stamp is checked (never a re-serialised input).
 */
import type { TDraftPolicy, TEngine, THeaders, TPolicyExplanation } from '@latchkey/activity-engine';
import type { TAdminOverviewRepository, TStore, TWebhookDeliveryRepository, TWebhookSigningKeyRepository } from '@latchkey/persistence';
import type { TGasReads } from '../read-models/gas-usage.js';

/** The platform parts the admin app uses, so tests can build it on a real platform. */
export interface TAdminServices {
  engine: TEngine;
  overview: TAdminOverviewRepository;
  deliveries: TWebhookDeliveryRepository;
  endpoints: TStore['webhookEndpoints'];
  signingKeys: TWebhookSigningKeyRepository;
  /** The gas window's configuration and ledger sums (the Gas page's chart). */
  gas: TGasReads;
  /** The policy dry run: draft policies against a stored activity (the engine's `explainDraftPolicies`). */
  explainPolicies(input: { organizationId: string; activityId: string; policies: readonly TDraftPolicy[] }): Promise<TPolicyExplanation>;
  /** Where bootstrap.json and the setup link live. */
  dataDir: string;
  /** The public API's base URL (the JWKS link shown on the webhooks page). */
  publicUrl: string;
  ping(): Promise<void>;
}

export interface TAdminContext {
  services: TAdminServices;
  headers: THeaders;
  /** The stamped bytes: a POST's body, or a subscription's `input` query parameter. Empty: none. */
  raw: Buffer;
}
