/**
 * The composition root. What every Latchkey process that runs activities opens from its configuration: the key vault (master key from
 * LATCHKEY_MASTER_KEY or $LATCHKEY_DATA_DIR/master.key), the database pool, the change feed that
 * keeps this process's caches honest, and the engine. Also the one logger configuration, with
 * every header or field that could carry a secret redacted.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDerivationPool, createFreshWalletSource, createEvmChains, parseGasPricesUsd, defaultDerivationWorkers, loadVault, readAllowInsecureWebhookUrls, type TDerivationPool, type TKeyVault } from '@latchkey/crypto';
export { loadVault };
import { createEngine, type TEngine, type TEngineOptions, type TEngineServices } from '@latchkey/activity-engine';
import { createMailer, createMessageSender, createSmsProvider, readDeliveryConfig } from '@latchkey/delivery';
import { readTvcQosVersions, type TConfig } from '@latchkey/domain';
import { createLogger } from '@latchkey/http';
import { createOauth2Providers, createOidcVerifier, readOauth2Config, readOidcHttpIssuers } from '@latchkey/identity-providers';
import { createStore, openDatabase, startChangeFeed, type TDatabase, type TStore } from '@latchkey/persistence';
import type { Logger } from 'pino';

export interface TPlatform {
  config: TConfig;
  vault: TKeyVault;
  db: TDatabase;
  store: TStore;
  engine: TEngine;
  close(): Promise<void>;
}


/**
 * The worker script of the derivation pool, bundled next to the app (tools/build-app.mjs puts
 * dist/derivation-worker.mjs beside dist/main.mjs); undefined when running from sources.
 */
function bundledDerivationWorker(): URL | undefined {
  const url = new URL('./derivation-worker.mjs', import.meta.url);
  return url.protocol === 'file:' && existsSync(fileURLToPath(url)) ? url : undefined;
}

/**
 * LATCHKEY_DERIVATION_WORKERS: worker threads that derive large account batches (default: the
 * machine's parallelism, at most 4; 0 derives on the main thread). Undefined: no pool.
 * @throws Error naming the variable when it is not an integer from 0 to 64
 */
export function createDerivation(env: Record<string, string | undefined>, workerUrl = bundledDerivationWorker()): TDerivationPool | undefined {
  const raw = env['LATCHKEY_DERIVATION_WORKERS']?.trim();
  const size = raw ? Number(raw) : defaultDerivationWorkers();
  if (!Number.isInteger(size) || size < 0 || size > 64) throw new Error(`LATCHKEY_DERIVATION_WORKERS must be an integer from 0 to 64, got ${JSON.stringify(raw)}`);
  if (size === 0 || !workerUrl) return undefined;
  return createDerivationPool({ workerUrl, size });
}

/**
 * Mail (SMTP from LATCHKEY_SMTP_URL, else the developer outbox in $LATCHKEY_DATA_DIR/outbox), SMS
 * (LATCHKEY_SMS_PROVIDER), OIDC verification (LATCHKEY_OIDC_HTTP_ISSUERS), the OAuth 2.0 provider endpoints
 * (LATCHKEY_OAUTH2_*), the derivation pool (LATCHKEY_DERIVATION_WORKERS) and where webhook endpoints
 * may point (LATCHKEY_WEBHOOK_ALLOW_INSECURE_URLS, read by the webhook worker's own parser so both
 * apply one rule), the EVM nodes eth_send_transaction uses (LATCHKEY_EVM_RPC_URLS, the same parser
 * as the worker's receipt watcher) and the QuorumOS versions TVC deployments may use
 * (LATCHKEY_TVC_QOS_VERSIONS), from the environment.
 * @throws Error naming an invalid delivery, OIDC, OAuth 2.0, derivation, webhook or EVM variable
 */
export function createPlatformServices(env: Record<string, string | undefined>, config: TConfig, logger: Logger): TEngineServices & { close(): Promise<void> } {
  const delivery = readDeliveryConfig(env, resolve(config.dataDir));
  const oauth2 = readOauth2Config(env, config.publicUrl);
  const derivation = createDerivation(env);
  // New wallets' mnemonics and seeds, made off the event loop while the process idles.
  const freshWallets = createFreshWalletSource();
  const mail = createMailer(delivery, logger);
  return {
    messages: createMessageSender(mail, createSmsProvider(delivery, logger)),
    oidc: createOidcVerifier({ httpIssuers: readOidcHttpIssuers(env, config.publicUrl) }),
    oauth2: createOauth2Providers(oauth2),
    webhookUrls: { allowInsecure: readAllowInsecureWebhookUrls(env) },
    tvc: { qosVersions: readTvcQosVersions(env) },
    evm: createEvmChains(env),
    gasPricesUsd: parseGasPricesUsd(env['LATCHKEY_GAS_PRICE_USD']),
    ...(derivation ? { derivation } : {}),
    freshWallets,
    async close() {
      freshWallets.close();
      await mail.close();
      await derivation?.close();
    },
  };
}

/**
 * @throws Error when no database URL is known, the master key cannot be read, or a delivery
 *   variable is invalid.
 */
export async function openPlatform(
  config: TConfig,
  opts: { poolSize?: number; logger?: Logger; env?: Record<string, string | undefined>; onActivity?: TEngineOptions['onActivity'] } = {},
): Promise<TPlatform> {
  if (!config.databaseUrl) throw new Error('DATABASE_URL is not set (npm start runs the embedded PostgreSQL and sets it for every app)');
  const services = createPlatformServices(opts.env ?? process.env, config, opts.logger ?? createLogger(config, 'platform'));
  const vault = await loadVault(config);
  const db = openDatabase(config.databaseUrl, opts.poolSize ? { max: opts.poolSize } : {});
  const store = createStore(db.prisma, db.sql);
  const engine = createEngine({ store, vault, timestampWindowMs: config.timestampWindowMs, approvalWindowMs: config.approvalWindowMs, services, ...(opts.onActivity ? { onActivity: opts.onActivity } : {}) });
  const feed = await startChangeFeed(config.databaseUrl, (m) => engine.cache.invalidate(m));
  return {
    config,
    vault,
    db,
    store,
    engine,
    async close() {
      await feed.close();
      await db.close();
      await services.close();
    },
  };
}
