/**
 * One HTTP POST of a signed delivery, to the address that was checked: the request's `lookup`
 * answers that address, while the Host header and the TLS server name stay the URL's host.
 * Redirects are never followed (node's client does not follow them; the status is the answer).
 * Keep-alive agents reuse connections to busy receivers.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { pinnedLookup, type TWebhookDestination } from '@latchkey/crypto';
import type { TAttemptResult } from './retry-policy.js';

/** Kept from a response body at most (it is read and dropped so the connection can be reused). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface TSender {
  /**
   * POSTs `body`, giving up after `t.waitMs` (what is left of the attempt's timeout, connect to
   * last byte); a timeout is reported as the attempt's `t.timeoutMs`.
   */
  send(d: TWebhookDestination, headers: Record<string, string>, body: Buffer, t: { waitMs: number; timeoutMs: number }): Promise<TAttemptResult>;
  close(): void;
}

/** `ca` replaces the system's trusted roots (tests with a throw-away CA); by default they are used. */
export function createSender(o: { maxSockets: number; ca?: string | Buffer }): TSender {
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: o.maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: o.maxSockets, ...(o.ca ? { ca: o.ca } : {}) }),
  };
  return {
    send(d, headers, body, t) {
      return new Promise<TAttemptResult>((resolve) => {
        const host = d.url.hostname.startsWith('[') ? d.url.hostname.slice(1, -1) : d.url.hostname;
        const isHttps = d.url.protocol === 'https:';
        let settled = false;
        const finish = (r: TAttemptResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve(r);
        };
        const req = (isHttps ? https : http).request({
          protocol: d.url.protocol,
          hostname: host,
          port: d.url.port || (isHttps ? 443 : 80),
          path: `${d.url.pathname}${d.url.search}`,
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(body.length), 'User-Agent': 'Latchkey-Webhooks/1' },
          agent: agents[isHttps ? 'https:' : 'http:'],
          lookup: pinnedLookup(d),
          ...(isHttps && isIP(host) === 0 ? { servername: host } : {}),
        });
        // One deadline for the whole attempt: connect, send, headers and body.
        const deadline = setTimeout(() => {
          finish({ error: `timed out after ${t.timeoutMs} ms` });
          req.destroy(new Error('timeout'));
        }, t.waitMs);
        req.on('error', (e: NodeJS.ErrnoException) => finish({ error: e.code ? `${e.code}: ${e.message}` : e.message }));
        req.on('response', (res) => {
          let seen = 0;
          res.on('data', (chunk: Buffer) => {
            seen += chunk.length;
            if (seen > MAX_RESPONSE_BYTES) res.destroy();
          });
          const done = () => finish({ statusCode: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] });
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        });
        req.end(body);
      });
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
