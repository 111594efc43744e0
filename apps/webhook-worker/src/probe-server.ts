/**
 * The worker's own port (LATCHKEY_WEBHOOK_WORKER_PORT): `/healthz` and `/readyz` (the database
 * answers) and `/metrics`; the worker serves no API. Delivering is its job, the port only watches
 * it: when the port is taken, the worker says so at error level and keeps delivering rather than
 * exiting (and being restarted for ever by the launcher over a port).
 */
import { createHttpServer, type TMetrics } from '@latchkey/http';
import type { TDatabase } from '@latchkey/persistence';
import type { Logger } from 'pino';

export interface TProbeServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on `host:port`.
 * @returns the server, or undefined when the port was taken (EADDRINUSE, logged)
 * @throws whatever else `listen` throws (a bad host, a privileged port)
 */
export async function startProbeServer(o: { logger: Logger; host: string; port: number; db: Pick<TDatabase, 'ping'>; metrics?: TMetrics | undefined }): Promise<TProbeServer | undefined> {
  const app = createHttpServer({ logger: o.logger, ready: () => o.db.ping(), ...(o.metrics ? { metrics: o.metrics } : {}) });
  try {
    await app.listen({ host: o.host, port: o.port });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    o.logger.error({ port: o.port }, `port ${o.port} (LATCHKEY_WEBHOOK_WORKER_PORT) is taken: this worker has no /healthz, /readyz or /metrics, and keeps delivering`);
    await app.close();
    return undefined;
  }
  const addr = app.server.address();
  return { port: typeof addr === 'object' && addr ? addr.port : o.port, close: () => app.close() };
}
