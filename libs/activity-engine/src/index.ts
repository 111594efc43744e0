/**
 * @latchkey/activity-engine — authentication of stamped requests, the activity registry (one
 * folder per kind under `activities/`), the policy hook, idempotency, the status machine, the
 * queries, and the installation's one-time steps.
 */
export { createEngine, type TEngine, type TEngineOptions, type THeaders } from './engine/engine.js';
export { createAuthCache, type TAuthCache } from './engine/auth-cache.js';
export { createPolicyEvaluator, type TApprover, type TPolicyEvaluator, type TPolicyDecision, type TPolicyOutcome, type TPolicyRequest } from './engine/policy-decision.js';
export { nextStatus, isTerminal, isVotable, InvalidTransitionError, type TActivityEvent } from './engine/status-machine.js';
export { activityKind, type TActivityDefinition, type TActivityContext, type TActivityVersion } from './engine/activity-definition.js';
export type { TPrincipal, TCredentialRef } from './engine/principal.js';
export { ACTIVITY_EVENT_TYPE } from './engine/submit-activity.js';
export { ACTIVITY_DEFINITIONS, createActivityRegistry, type TActivityRegistry } from './registry.js';
export { QUERY_DEFINITIONS } from './queries/registry.js';
export {
  SERVER_KEY_PURPOSES,
  assertVaultKey,
  bootstrapInstallation,
  createRootOrganization,
  ensureServerKeys,
  loadServerPublicKeys,
  type TBootstrapResult,
  type TCreatedOrganization,
  type TNewRootOrganization,
  type TServerPublicKeys,
} from './installation/installation.js';
export { openPlatform, loadVault, createDerivation, type TPlatform } from './platform.js';
export { unconfiguredServices, type TEngineServices } from './engine/services.js';
export * from './delivery/index.js';
export * from './oidc/index.js';
export { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, oidcDiscoveryDocument, oidcIssuerJwks } from './activities/oauth2/oidc-issuer.js';
