/**
 * Auth proxy process: `node apps/auth-proxy/dist/main.mjs` (started by `npm start`). The proxy is
 * an HTTP client of the public API: it opens no database, no key vault, no engine.
 */
import { parseConfig } from '@latchkey/domain';
import { createLogger, serve } from '@latchkey/http';
import { buildAuthProxy } from './app.js';

const config = parseConfig(process.env);
const logger = createLogger(config, 'auth-proxy');
try {
  const app = buildAuthProxy({ logger });
  const port = await serve(app, { service: 'auth-proxy', host: config.host, port: config.authProxyPort });
  logger.info({ port }, 'auth proxy ready');
} catch (e) {
  logger.fatal({ err: e }, 'auth proxy failed to start');
  process.exit(1);
}
