/**
 * @latchkey/platform — the composition root: `openPlatform` builds the engine with the real ports
 * (delivery, identity providers, the derivation pool) on the database and the key vault, and the
 * installation's first-start steps (vault check, server keys, the first root organization). The
 * public API, the admin app and the CLI start here; the auth proxy and the webhook worker do not.
 */
export { openPlatform, createPlatformServices, loadVault, createDerivation, type TPlatform } from './platform.js';
export { createPlatformMetrics, instrumentPlatform } from './platform-metrics.js';
export {
  assertVaultKey,
  bootstrapInstallation,
  createRootOrganization,
  ensureServerKeys,
  type TBootstrapResult,
  type TCreatedOrganization,
  type TNewRootOrganization,
} from './installation.js';
export { ensureGasRelayer, loadServerPublicKeys, type TServerPublicKeys } from '@latchkey/activity-engine';
export { OIDC_DISCOVERY_PATH, OIDC_JWKS_PATH, oidcDiscoveryDocument, oidcIssuerJwks } from '@latchkey/identity-providers';
export { ADMIN_SETUP_TTL_MS, adminSetupUrl, checkAdminSetupToken, issueAdminSetupToken, spendAdminSetupToken } from './admin-setup-link.js';
