/** Auth proxy process: `node apps/auth-proxy/dist/main.mjs` (started by `npm start`). */
import { openPlatform } from '@latchkey/activity-engine';
import { parseConfig } from '@latchkey/domain';
import { createLogger, serve } from '@latchkey/http';
import { buildAuthProxy } from './app.js';

const config = parseConfig(process.env);
const logger = createLogger(config, 'auth-proxy');
try {
  const platform = await openPlatform(config, { poolSize: 4, logger });
  const app = buildAuthProxy({ logger, ready: () => platform.db.ping() });
  const port = await serve(app, { service: 'auth-proxy', host: config.host, port: config.authProxyPort, onClose: () => platform.close() });
  logger.info({ port }, 'auth proxy ready');
} catch (e) {
  logger.fatal({ err: e }, 'auth proxy failed to start');
  process.exit(1);
}
