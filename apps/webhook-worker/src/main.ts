/**
 * Webhook worker process: `node apps/webhook-worker/dist/main.mjs` (started by `npm start`), or
 * from sources with `node --conditions=@latchkey/source --import tsx src/main.ts`. Needs the
 * database (DATABASE_URL) and the master key (LATCHKEY_MASTER_KEY or $LATCHKEY_DATA_DIR/master.key),
 * not the engine: everything it delivers was written to the outbox by the activities' transactions.
 */
import { createEvmChains, loadVault } from '@latchkey/crypto';
import { parseConfig } from '@latchkey/domain';
import { createLogger, createMetrics, holdForLauncher, registerDatabaseGauges, runUntilStopped, webhookCounters } from '@latchkey/http';
import { ensureWebhookSigningKey, listenForWebhookWork, openDatabase, readOutboxBacklog, webhookSigningKeyRepository } from '@latchkey/persistence';
import { asyncCommitUrl } from './async-commit-url.js';
import { parseWebhookConfig } from './config.js';
import { startProbeServer } from './probe-server.js';
import { createSignerCache } from './signer-cache.js';
import { createReceiptWatcher } from './receipt-watcher.js';
import { createWebhookWorker } from './worker.js';

// Started early by the launcher: the code above is loaded; wait here for the database's URL.
await holdForLauncher();
const config = parseConfig(process.env);
const logger = createLogger(config, 'webhook-worker');
try {
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set (npm start runs the embedded PostgreSQL and sets it for every app)');
  const webhooks = parseWebhookConfig(process.env);
  const vault = await loadVault(config);
  const db = openDatabase(asyncCommitUrl(config.databaseUrl), { max: 4 });
  const keys = webhookSigningKeyRepository(db);
  const first = await ensureWebhookSigningKey(keys, vault);
  const metrics = config.metricsEnabled ? createMetrics({ service: 'webhook-worker', token: config.metricsToken }) : undefined;
  if (metrics) registerDatabaseGauges(metrics, { poolStats: () => db.poolStats(), outboxBacklog: () => readOutboxBacklog(db.sql) });
  const worker = createWebhookWorker({ db, config: webhooks, logger, signer: createSignerCache(keys, vault), ...(metrics ? { metrics: webhookCounters(metrics) } : {}) });
  const wakeups = await listenForWebhookWork(config.databaseUrl, (w) => worker.wake(w), {
    onError: (err) => logger.warn({ err }, 'webhook wake-up connection lost; reconnecting (polling meanwhile)'),
  });
  worker.start();
  // eth_send_transaction's sends on the chains LATCHKEY_EVM_RPC_URLS names (none: nothing to watch).
  const chains = createEvmChains(process.env);
  const receipts = createReceiptWatcher({ db, chains, logger, intervalMs: Math.min(config.webhookPollMs, 1000) });
  receipts.start();
  const probes = await startProbeServer({ logger, host: config.host, port: config.webhookWorkerPort, db, metrics });
  runUntilStopped('webhook-worker', async () => {
    await probes?.close();
    await receipts.stop();
    await wakeups.close();
    await worker.stop();
    await db.close();
  });
  process.send?.({ type: 'ready', service: 'webhook-worker' });
  logger.info({ port: probes?.port, signingKeyId: first.keyId, concurrency: webhooks.concurrency, allowInsecureUrls: webhooks.allowInsecureUrls, evmChains: [...chains.keys()] }, 'webhook worker ready');
} catch (e) {
  logger.fatal({ err: e }, 'webhook worker failed to start');
  process.exit(1);
}
