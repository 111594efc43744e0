/** @latchkey/http — HTTP plumbing shared by the apps (no business logic). */
export { createHttpServer, rawBody, type THttpServerOptions } from './http-server.js';
export { ADMIT_CREDENTIAL, TokenBuckets, clientKey, registerRateLimits, type TAdmitCredential, type TRateLimitOptions } from './rate-limit.js';
export { serve, runUntilStopped, type TRunOptions } from './serve.js';
export { assertMayScrape, createMetrics, registerMetrics, type TMetrics, type TMetricsOptions } from './metrics.js';
export { activityCounter, registerAuthCacheCounters, registerDatabaseGauges, webhookCounters, type TDatabaseGaugeSource, type TWebhookMetrics } from './metric-sets.js';
export { createLogger, REDACTED_LOG_PATHS } from './logger.js';
export { holdForLauncher, isStartMessage, isWaitingMessage, LAUNCHER_HOLD_ENV, type TStartMessage, type TWaitingMessage } from './launcher-hold.js';
