/**
 * The sender over TLS: it connects to the checked address while the Host header and the TLS server
 * name (SNI, and the certificate check) stay the URL's host — here a name no resolver knows, so the
 * connection can only have gone to the pinned address.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender } from '../src/send-webhook.js';

const dir = mkdtempSync(join(tmpdir(), 'lk-webhook-tls-'));
let server: ReturnType<typeof createServer>;
let port: number;
let cert: Buffer;
const seen: { host?: string | undefined; servername?: string | false | null | undefined; body: string }[] = [];

beforeAll(async () => {
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=hooks.test', '-addext', 'subjectAltName=DNS:hooks.test', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
  cert = readFileSync(join(dir, 'cert.pem'));
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ host: req.headers.host, servername: (req.socket as TLSSocket).servername, body });
      res.writeHead(req.url === '/redirect' ? 307 : 202, req.url === '/redirect' ? { Location: '/elsewhere' } : {});
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('createSender over https', () => {
  it('pins the address, keeps Host and SNI, checks the certificate against the name', async () => {
    const sender = createSender({ maxSockets: 4, ca: cert });
    const d = { url: new URL(`https://hooks.test:${port}/hook?x=1`), address: '127.0.0.1', family: 4 as const };
    expect(await sender.send(d, { 'Content-Type': 'application/json' }, Buffer.from('{"a":1}'), { waitMs: 5000, timeoutMs: 5000 })).toEqual({ statusCode: 202, retryAfter: undefined });
    expect(seen.at(-1)).toEqual({ host: `hooks.test:${port}`, servername: 'hooks.test', body: '{"a":1}' });
    // A 3xx is returned as it is, never followed.
    expect(await sender.send({ ...d, url: new URL(`https://hooks.test:${port}/redirect`) }, {}, Buffer.from('{}'), { waitMs: 5000, timeoutMs: 5000 })).toMatchObject({ statusCode: 307 });
    expect(seen).toHaveLength(2);
    sender.close();
  });

  it('refuses a certificate for another name (the check uses the URL host, not the address)', async () => {
    const sender = createSender({ maxSockets: 4, ca: cert });
    const r = await sender.send({ url: new URL(`https://other.test:${port}/hook`), address: '127.0.0.1', family: 4 }, {}, Buffer.from('{}'), { waitMs: 5000, timeoutMs: 5000 });
    expect(r).toMatchObject({ error: expect.stringMatching(/ERR_TLS_CERT_ALTNAME_INVALID/) });
    sender.close();
  });
});
