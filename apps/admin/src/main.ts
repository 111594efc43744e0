/** Admin process: `node apps/admin/dist/main.mjs` (started by `npm start`). */
import { createActivityRegistry, explainDraftPolicies } from '@latchkey/activity-engine';
import { createPlatformMetrics, instrumentPlatform, openPlatform } from '@latchkey/platform';
import { parseConfig } from '@latchkey/domain';
import { createLogger, holdForLauncher, serve } from '@latchkey/http';
import { adminOverviewRepository, webhookDeliveryRepository, webhookSigningKeyRepository } from '@latchkey/persistence';
import { buildAdmin } from './app.js';
import { dashboardDir } from './static/serve-dashboard.js';

// Started early by the launcher: the code above is loaded; wait here for the database's URL.
await holdForLauncher();
const config = parseConfig(process.env);
const logger = createLogger(config, 'admin');
try {
  // LATCHKEY_METRICS=off: no registry, no observer, no per-request hook.
  const observed = config.metricsEnabled ? createPlatformMetrics('admin', config.metricsToken) : undefined;
  const platform = await openPlatform(config, { poolSize: 4, logger, ...(observed ? { onActivity: observed.onActivity } : {}) });
  if (observed) instrumentPlatform(observed.metrics, platform);
  const registry = createActivityRegistry();
  const dir = dashboardDir();
  if (!dir) logger.warn('the dashboard is not built (apps/admin/dist/dashboard): / answers 503 until `npm run build`');
  const app = buildAdmin({
    logger,
    rateLimits: config.rateLimits,
    trustedProxies: config.trustedProxies,
    ...(observed ? { metrics: observed.metrics } : {}),
    dashboardDir: dir,
    services: {
      engine: platform.engine,
      overview: adminOverviewRepository(platform.db),
      deliveries: webhookDeliveryRepository(platform.db),
      endpoints: platform.store.webhookEndpoints,
      signingKeys: webhookSigningKeyRepository(platform.db),
      gas: platform.store.gas,
      explainPolicies: (input) => explainDraftPolicies({ store: platform.store, registry }, input),
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      ping: () => platform.db.ping(),
    },
  });
  const port = await serve(app, { service: 'admin', host: config.host, port: config.adminPort, onClose: () => platform.close() });
  logger.info({ port }, 'admin ready');
} catch (e) {
  logger.fatal({ err: e }, 'admin failed to start');
  process.exit(1);
}
