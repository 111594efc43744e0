/**
 * Auth proxy process: `node apps/auth-proxy/dist/main.mjs` (started by `npm start`). The proxy is
 * an HTTP client of the public API (LATCHKEY_PUBLIC_API_URL): it opens no database and no engine.
 * It opens the key vault only to unseal its configs' proxy keys, which it fetches sealed.
 */
import { loadVault } from '@latchkey/crypto';
import { parseConfig } from '@latchkey/domain';
import { createLogger, createMetrics, serve } from '@latchkey/http';
import { buildAuthProxy } from './app.js';
import { createConfigSource } from './config-source.js';
import { createCaptcha, createRateLimiter } from './guards.js';
import { createPublicApiClient } from './public-api-client.js';

const config = parseConfig(process.env);
const logger = createLogger(config, 'auth-proxy');
try {
  const vault = await loadVault(config);
  const deps = {
    configs: createConfigSource({ publicApiUrl: config.publicApiUrl, vault }),
    api: createPublicApiClient(config.publicApiUrl),
    limits: createRateLimiter(),
    captcha: createCaptcha(config.turnstile),
    turnstileSiteKey: config.turnstile.siteKey,
  };
  const app = buildAuthProxy({ logger, deps, trustedProxies: config.trustedProxies, ...(config.metricsEnabled ? { metrics: createMetrics({ service: 'auth-proxy', token: config.metricsToken }) } : {}) });
  const port = await serve(app, { service: 'auth-proxy', host: config.host, port: config.authProxyPort });
  logger.info({ port, publicApiUrl: config.publicApiUrl }, 'auth proxy ready');
} catch (e) {
  logger.fatal({ err: e }, 'auth proxy failed to start');
  process.exit(1);
}
