/** The worker's port is for watching it: a port already taken is reported, never fatal. */
import { createServer, type Server } from 'node:net';
import { createMetrics } from '@latchkey/http';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { startProbeServer } from './probe-server.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A logger whose lines are kept, to see what an operator would. */
function keptLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as { level: number; msg: string }) });
  return { logger, lines };
}

describe('startProbeServer', () => {
  it('serves /metrics on its port', async () => {
    const { logger } = keptLogger();
    const probes = await startProbeServer({ logger, host: '127.0.0.1', port: 0, db: { ping: async () => undefined }, metrics: createMetrics({ service: 'webhook-worker' }) });
    expect(probes).toBeDefined();
    cleanups.push(() => probes!.close());
    const res = await fetch(`http://127.0.0.1:${probes!.port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/service="webhook-worker"/);
  });

  it('reports a taken port at error level and gives up the port only', async () => {
    const squatter: Server = createServer();
    await new Promise<void>((r) => squatter.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise((r) => squatter.close(() => r())));
    const port = (squatter.address() as { port: number }).port;
    const { logger, lines } = keptLogger();
    const probes = await startProbeServer({ logger, host: '127.0.0.1', port, db: { ping: async () => undefined } });
    expect(probes).toBeUndefined();
    expect(lines.some((l) => l.level === 50 && l.msg.includes(`port ${port} (LATCHKEY_WEBHOOK_WORKER_PORT) is taken`))).toBe(true);
  });

  it('throws what is not a taken port', async () => {
    const { logger } = keptLogger();
    await expect(startProbeServer({ logger, host: '203.0.113.1', port: 0, db: { ping: async () => undefined } })).rejects.toThrow(/EADDRNOTAVAIL/);
  });
});
