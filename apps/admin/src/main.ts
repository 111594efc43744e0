/** Admin process: `node apps/admin/dist/main.mjs` (started by `npm start`). */
import { openPlatform } from '@latchkey/platform';
import { parseConfig } from '@latchkey/domain';
import { createLogger, serve } from '@latchkey/http';
import { buildAdmin } from './app.js';

const config = parseConfig(process.env);
const logger = createLogger(config, 'admin');
try {
  const platform = await openPlatform(config, { poolSize: 4, logger });
  const app = buildAdmin({ logger, ping: () => platform.db.ping() });
  const port = await serve(app, { service: 'admin', host: config.host, port: config.adminPort, onClose: () => platform.close() });
  logger.info({ port }, 'admin ready');
} catch (e) {
  logger.fatal({ err: e }, 'admin failed to start');
  process.exit(1);
}
