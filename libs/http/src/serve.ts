/**
 * Running an app process: listen, tell the launcher (over IPC, when started by it) that the
 * app is ready, and shut down cleanly on SIGINT/SIGTERM or when the launcher goes away.
 */
import type { FastifyInstance } from 'fastify';

export interface TRunOptions {
  service: string;
  host: string;
  port: number;
  /** Closed after the server stops accepting requests. */
  onClose?: () => Promise<void>;
}

/** Starts listening and wires shutdown; resolves with the bound port. */
export async function serve(app: FastifyInstance, o: TRunOptions): Promise<number> {
  await app.listen({ host: o.host, port: o.port });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : o.port;
  runUntilStopped(o.service, async () => {
    await app.close();
    await o.onClose?.();
  });
  process.send?.({ type: 'ready', service: o.service, port });
  return port;
}

/** Calls `stop` once on SIGINT, SIGTERM or loss of the launcher, then exits. */
export function runUntilStopped(service: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = (why: string) => {
    if (stopping) return;
    stopping = true;
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`${service}: error while stopping after ${why}: ${String(e)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  // Started by the launcher over IPC: if it dies, so do we (no orphans holding ports).
  if (process.send) process.once('disconnect', () => shutdown('launcher disconnect'));
}
