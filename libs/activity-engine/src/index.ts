/**
 * @latchkey/activity-engine — the activity pipeline: authentication of stamped requests, the
 * activity registry (a folder per resource under `activities/`, a file per kind), submission with
 * the policy hook and idempotency, consensus and votes, the status machine, and the queries. What
 * it needs from outside (messages, id-token verification, OAuth 2.0 providers) it declares as
 * ports in `engine/services.ts`; `@latchkey/platform` plugs them in.
 */
export { createEngine, type TEngine, type TEngineOptions, type THeaders } from './engine/engine.js';
export { createAuthCache, type TAuthCache, type TAuthCacheMap } from './engine/auth-cache.js';
export { createPolicyEvaluator, type TApprover, type TPolicyEvaluator, type TPolicyDecision, type TPolicyOutcome, type TPolicyRequest } from './engine/policy-decision.js';
export { explainDraftPolicies, type TDraftPolicy, type TDryRunOutcome, type TExplainDeps, type TPolicyExplanation } from './engine/explain-draft-policies.js';
export { nextStatus, isTerminal, isVotable, InvalidTransitionError, type TActivityEvent } from './engine/status-machine.js';
export type { TActivityDefinition, TActivityContext, TActivityVersion } from './engine/activity-definition.js';
export type { TPrincipal, TCredentialRef } from './engine/principal.js';
export { ACTIVITY_EVENT_TYPE } from './engine/submit-activity.js';
export { ACTIVITY_DEFINITIONS, createActivityRegistry, type TActivityRegistry } from './registry.js';
export { QUERY_DEFINITIONS } from './queries/registry.js';
export { buildOpenApiDocument, openApiOperations, QUERY_PREFIX, SUBMIT_PREFIX, type TOpenApiExtraRoute, type TOpenApiOptions } from './openapi/build-openapi-document.js';
export { INSTALLATION_LOCK, SERVER_KEY_PURPOSES, ensureServerKeys, loadServerPublicKeys, withServerKey, type TServerKey, type TServerKeyPurpose, type TServerPublicKeys } from './keys/server-keys.js';
export { oauth2ClientSecretAad, serverKeyAad } from './keys/vault-aad.js';
export { ensureGasRelayer } from './keys/gas-relayer.js';
export {
  unconfiguredServices,
  type TEngineServices,
  type TIdTokenVerifier,
  type TIdTokenVerifyOptions,
  type TIssuedIdToken,
  type TMessageSender,
  type TOauth2CodeExchange,
  type TOauth2Providers,
  type TVerifiedIdToken,
} from './engine/services.js';
export { createRootOrganization, type TCreatedOrganization, type TNewRootOrganization } from './organizations/root-organization.js';
export { createAuthProxyRuntimeReader, type TAuthProxyRuntimeReader } from './auth-proxy/read-proxy-runtime.js';
