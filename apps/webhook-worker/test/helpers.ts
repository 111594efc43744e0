/**
 * Test parts shared by the worker's specs: a real PostgreSQL with the migrations, a real HTTP
 * receiver on 127.0.0.1 that checks every delivery with the unmodified
 * `verifyTurnkeyWebhookSignature` against keys taken from the JWKS document, and builders for
 * organizations, endpoints and outbox events (the endpoint activities do not exist yet, so they
 * are written through the repository and SQL).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createKeyVault, newId, type TKeyVault } from '@latchkey/crypto';
import {
  openDatabase,
  runMigrations,
  webhookEndpointRepository,
  webhookJwksDocument,
  webhookSigningKeyRepository,
  type TDatabase,
} from '@latchkey/persistence';
import { createTestDatabase, type TTestDatabase } from '@latchkey/persistence/testing';
import { verifyTurnkeyWebhookSignature } from '@turnkey/crypto';

export const MASTER_KEY_HEX = '07'.repeat(32);

export interface TReceived {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
  /** The verifier's verdict on this delivery as received. */
  verified: ReturnType<typeof verifyTurnkeyWebhookSignature>;
}

export type TAnswer = { status: number; headers?: Record<string, string>; delayMs?: number };

export interface TReceiver {
  url(path: string): string;
  received: TReceived[];
  /** How a path answers its n-th request (0-based); 200 by default. */
  answer(path: string, f: (n: number) => TAnswer): void;
  at(path: string): TReceived[];
  close(): Promise<void>;
}

/** Verification keys as a Turnkey receiver builds them from the JWKS: `x` base64url → hex. */
export async function jwksVerificationKeys(db: TDatabase): Promise<{ keyId: string; publicKey: string; algorithm: 'ed25519' }[]> {
  const doc = await webhookJwksDocument(webhookSigningKeyRepository(db));
  return doc.body.keys.map((k) => ({ keyId: k.kid, publicKey: Buffer.from(k.x, 'base64url').toString('hex'), algorithm: 'ed25519' as const }));
}

export async function startReceiver(db: TDatabase): Promise<TReceiver> {
  const received: TReceived[] = [];
  const answers = new Map<string, (n: number) => TAnswer>();
  const counts = new Map<string, number>();
  let keys = await jwksVerificationKeys(db);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '';
        const verify = () => verifyTurnkeyWebhookSignature({ headers: req.headers as Record<string, string>, body, verificationKeys: keys, maxTimestampAgeMs: 300_000 });
        let verified = verify();
        // As receivers do: an unknown key id means "refetch the JWKS".
        if (!verified.ok && verified.reason === 'missing_key') {
          keys = await jwksVerificationKeys(db);
          verified = verify();
        }
        received.push({ path, headers: req.headers, body, at: Date.now(), verified });
        const n = counts.get(path) ?? 0;
        counts.set(path, n + 1);
        const a = answers.get(path)?.(n) ?? { status: 200 };
        if (a.delayMs) await new Promise((r) => setTimeout(r, a.delayMs));
        res.writeHead(a.status, a.headers ?? {});
        res.end('ok');
      })();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    answer: (path, f) => void answers.set(path, f),
    at: (path) => received.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export interface TWorld {
  testDb: TTestDatabase;
  db: TDatabase;
  vault: TKeyVault;
}

export async function openWorld(): Promise<TWorld> {
  const testDb = await createTestDatabase();
  await runMigrations(testDb.url);
  return { testDb, db: openDatabase(testDb.url, { max: 6 }), vault: createKeyVault(Buffer.from(MASTER_KEY_HEX, 'hex')) };
}

export async function createOrganization(db: TDatabase, id: string, parent: string | null = null): Promise<void> {
  await db.sql.query(`INSERT INTO organizations (id, parent_organization_id, name) VALUES ($1, $2, $1)`, [id, parent]);
}

export async function createEndpoint(db: TDatabase, organizationId: string, url: string, opts: { isActive?: boolean; subscriptionActive?: boolean } = {}): Promise<string> {
  const repo = webhookEndpointRepository(db.prisma);
  const e = await repo.create({ id: newId(), organizationId, url, name: `hook ${url}`, now: new Date(), subscriptions: [{ id: newId(), eventType: 'ACTIVITY_UPDATES', isActive: opts.subscriptionActive ?? true }] });
  if (opts.isActive === false) await repo.update(organizationId, e.endpointId, { isActive: false, now: new Date() });
  return e.endpointId;
}

/** The activity object an outbox event carries (`{activity}`), as the engine writes it. */
export function activity(organizationId: string, id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    organizationId,
    status: 'ACTIVITY_STATUS_COMPLETED',
    type: 'ACTIVITY_TYPE_CREATE_WALLET',
    intent: { createWalletIntent: { walletName: id } },
    result: { createWalletResult: { walletId: `w-${id}`, addresses: [] } },
    votes: [],
    fingerprint: `fp-${id}`,
    canApprove: false,
    canReject: false,
    createdAt: { seconds: '1764000000', nanos: '0' },
    updatedAt: { seconds: '1764000000', nanos: '0' },
    ...extra,
  };
}

/** Appends ACTIVITY_UPDATES outbox events in one statement (ids in the given order). */
export async function appendEvents(db: TDatabase, events: { organizationId: string; activityId: string }[]): Promise<void> {
  await db.sql.query(
    `INSERT INTO outbox_events (organization_id, event_type, payload)
     SELECT o, 'ACTIVITY_UPDATES', p::jsonb FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(o, p, n) ORDER BY n`,
    [events.map((e) => e.organizationId), events.map((e) => JSON.stringify({ activity: activity(e.organizationId, e.activityId) }))],
  );
}

/** Polls `check` until it returns true, or fails after `timeoutMs` with `what`. */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export const header = (r: TReceived, name: string) => r.headers[name.toLowerCase()] as string | undefined;
