/** Webhook worker process: `node apps/webhook-worker/dist/main.mjs` (started by `npm start`). */
import { openPlatform } from '@latchkey/activity-engine';
import { parseConfig } from '@latchkey/domain';
import { createLogger, runUntilStopped } from '@latchkey/http';
import { processOutboxBatch } from '@latchkey/persistence';
import { createWorker, deliverToNoDestinations } from './worker.js';

const config = parseConfig(process.env);
const logger = createLogger(config, 'webhook-worker');
try {
  const platform = await openPlatform(config, { poolSize: 2, logger });
  const worker = createWorker({
    processBatch: (limit, handle) => processOutboxBatch(platform.db, limit, handle),
    deliver: deliverToNoDestinations,
    logger,
    pollMs: config.webhookPollMs,
  });
  worker.start();
  runUntilStopped('webhook-worker', async () => {
    await worker.stop();
    await platform.close();
  });
  process.send?.({ type: 'ready', service: 'webhook-worker' });
  logger.info('webhook worker ready');
} catch (e) {
  logger.fatal({ err: e }, 'webhook worker failed to start');
  process.exit(1);
}
