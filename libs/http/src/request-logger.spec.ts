import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createHttpServer } from './http-server.js';

/** A pino logger at `level` writing into `lines`, with the redaction of the real one. */
function capture(level: string) {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const l of chunk.toString('utf8').split('\n')) if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
      cb();
    },
  });
  const logger = pino({ level, redact: { paths: ['*.password'], censor: '[redacted]' } }, stream);
  return { logger, lines };
}

describe('request logger made on first use', () => {
  it('writes the lines pino would: the request id bound, redaction applied', async () => {
    const { logger, lines } = capture('info');
    const app = createHttpServer({ logger });
    app.post('/x', async (req) => {
      req.log.warn({ login: { password: 'secret-pw' } }, 'from the route');
      return { ok: true };
    });
    const r = await app.inject({ method: 'POST', url: '/x', headers: { 'x-request-id': 'rid-1' } });
    expect(r.statusCode).toBe(200);
    const own = lines.find((l) => l['msg'] === 'from the route');
    expect(own).toMatchObject({ reqId: 'rid-1', level: 40, login: { password: '[redacted]' } });
    // fastify's own request lines (info) are written too, with the same request id.
    expect(lines.filter((l) => l['reqId'] === 'rid-1').map((l) => l['msg'])).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    expect(JSON.stringify(lines)).not.toContain('secret-pw');
  });

  it('writes nothing below the level, and an error above it with its request id', async () => {
    const { logger, lines } = capture('warn');
    const app = createHttpServer({ logger });
    app.post('/ok', async (req) => {
      req.log.info('not written');
      expect(req.log.level).toBe('warn');
      expect((req.log as unknown as { isLevelEnabled(l: string): boolean }).isLevelEnabled('info')).toBe(false);
      return { ok: true };
    });
    app.post('/crash', async () => {
      throw new Error('boom');
    });
    expect((await app.inject({ method: 'POST', url: '/ok', headers: { 'x-request-id': 'rid-2' } })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    expect((await app.inject({ method: 'POST', url: '/crash', headers: { 'x-request-id': 'rid-3' } })).statusCode).toBe(500);
    expect(lines.map((l) => [l['reqId'], l['level'], l['msg']])).toEqual([
      ['rid-3', 50, 'unhandled error'],
      ['rid-3', 50, 'internal server error'],
    ]);
  });
});
