/** Public API process: `node apps/public-api/dist/main.mjs` (started by `npm start`). */
import { createAuthProxyRuntimeReader } from '@latchkey/activity-engine';
import { createPlatformMetrics, instrumentPlatform, loadServerPublicKeys, openPlatform } from '@latchkey/platform';
import { parseConfig } from '@latchkey/domain';
import { createLogger, holdForLauncher, serve } from '@latchkey/http';
import { webhookSigningKeyRepository } from '@latchkey/persistence';
import { buildPublicApi } from './app.js';
import { createReadiness } from './plugins/readiness.js';

// Started early by the launcher: the code above is loaded; wait here for the database's URL.
await holdForLauncher();
const config = parseConfig(process.env);
const logger = createLogger(config, 'public-api');
// One line below info at every start, so an operator (and the secrets-scan test) can see a debug or trace level took effect.
logger.debug({ logLevel: config.logLevel }, 'log level');
try {
  // LATCHKEY_METRICS=off: no registry, no observer, no per-request hook.
  const observed = config.metricsEnabled ? createPlatformMetrics('public-api', config.metricsToken) : undefined;
  const platform = await openPlatform(config, { logger, ...(observed ? { onActivity: observed.onActivity } : {}) });
  if (observed) instrumentPlatform(observed.metrics, platform);
  const serverKeys = await loadServerPublicKeys(platform.store);
  const app = buildPublicApi({ engine: platform.engine, serverKeys, logger, issuer: config.publicUrl, ready: () => platform.db.ping(), webhookKeys: webhookSigningKeyRepository(platform.db),
    authProxyRuntime: createAuthProxyRuntimeReader(platform.store, platform.vault),
    http: { readiness: createReadiness(platform.db.sql), rateLimits: config.rateLimits, trustedProxies: config.trustedProxies, ...(observed ? { metrics: observed.metrics } : {}) } });
  const port = await serve(app, { service: 'public-api', host: config.host, port: config.publicApiPort, onClose: () => platform.close() });
  logger.info({ port }, 'public API ready');
} catch (e) {
  logger.fatal({ err: e }, 'public API failed to start');
  process.exit(1);
}
