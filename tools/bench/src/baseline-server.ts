/**
 * The baseline for the whoami benchmark: the least a server must do to answer a stamped whoami.
 * A bare fastify (no logger, no hooks) that takes the raw body, decodes `X-Stamp`, verifies the
 * P-256 signature over the raw bytes with node:crypto, parses the JSON and answers from constants.
 * Imported public keys are cached per key in a bounded LRU, as the real server does, so the ratio
 * measures Latchkey's overhead rather than a difference in key handling.
 *
 * Run as a child process (`fork` with `--import tsx`) by whoami-throughput.ts: it listens on a free
 * loopback port and reports `{type: 'ready', port}` over IPC. The answer comes from the environment:
 * BASELINE_ORGANIZATION_ID, BASELINE_ORGANIZATION_NAME, BASELINE_USER_ID, BASELINE_USERNAME.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import Fastify from 'fastify';

// SEQUENCE { SEQUENCE { id-ecPublicKey, prime256v1 }, BIT STRING (0 unused bits) <33-byte point> }
const P256_SPKI_COMPRESSED_PREFIX = Buffer.from('3039301306072a8648ce3d020106082a8648ce3d030107032200', 'hex');
const KEY_CACHE_SIZE = 1024;
const keyCache = new Map<string, KeyObject>();

/** KeyObject for a compressed P-256 key in hex, or undefined when it is not one. */
function publicKeyObject(publicKeyHex: string): KeyObject | undefined {
  const cached = keyCache.get(publicKeyHex);
  if (cached) {
    // Map iteration order is insertion order: re-inserting marks the entry most recently used.
    keyCache.delete(publicKeyHex);
    keyCache.set(publicKeyHex, cached);
    return cached;
  }
  const point = Buffer.from(publicKeyHex, 'hex');
  if (point.length !== 33 || publicKeyHex.length !== 66) return undefined;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.concat([P256_SPKI_COMPRESSED_PREFIX, point]), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
  keyCache.set(publicKeyHex, key);
  if (keyCache.size > KEY_CACHE_SIZE) {
    const oldest = keyCache.keys().next();
    if (!oldest.done) keyCache.delete(oldest.value);
  }
  return key;
}

/** True when the X-Stamp header carries a P-256 signature over `body` that verifies. */
function stampVerifies(header: unknown, body: Buffer): boolean {
  if (typeof header !== 'string') return false;
  let stamp: unknown;
  try {
    stamp = JSON.parse(Buffer.from(header, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  const { publicKey, scheme, signature } = (stamp ?? {}) as Record<string, unknown>;
  if (scheme !== 'SIGNATURE_SCHEME_TK_API_P256' || typeof publicKey !== 'string' || typeof signature !== 'string') return false;
  const key = publicKeyObject(publicKey);
  if (!key) return false;
  try {
    return verify('sha256', body, key, Buffer.from(signature, 'hex'));
  } catch {
    return false;
  }
}

function requireEnv(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

const answer = {
  organizationId: requireEnv('BASELINE_ORGANIZATION_ID'),
  organizationName: requireEnv('BASELINE_ORGANIZATION_NAME'),
  userId: requireEnv('BASELINE_USER_ID'),
  username: requireEnv('BASELINE_USERNAME'),
};

const app = Fastify({ logger: false });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

app.post('/public/v1/query/whoami', async (req, reply) => {
  const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  if (!stampVerifies(req.headers['x-stamp'], body)) return reply.code(401).send({ code: 16, message: 'invalid stamp', details: [] });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return reply.code(400).send({ code: 3, message: 'body is not JSON', details: [] });
  }
  if ((parsed as { organizationId?: unknown } | null)?.organizationId !== answer.organizationId) {
    return reply.code(400).send({ code: 3, message: 'unknown organizationId', details: [] });
  }
  return answer;
});

const stop = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// If the benchmark dies, so does the baseline (no orphan holding a port).
process.once('disconnect', stop);

await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.send?.({ type: 'ready', port });
