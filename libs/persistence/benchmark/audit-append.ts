/**
 * What the audit link costs the signing path: the one statement a warm signature writes
 * (`insertWithEvent`: activity + outbox event, and since migration 0021 the link as two more CTEs),
 * timed through the real repository on the plain-SQL pool, alternating in one run between a final
 * activity (COMPLETED: linked) and the same activity not yet final (CONSENSUS_NEEDED: the statement
 * as it was before 0021), so the shared machine's drift falls on both alike.
 *
 * Run from libs/persistence: `npx tsx benchmark/audit-append.ts` (DATABASE_URL for an external
 * PostgreSQL, else an embedded one). BENCH_STATEMENTS (default 2000 of each).
 */
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../src/database.js';
import { runMigrations } from '../src/migrations/run-migrations.js';
import { createStore } from '../src/store.js';
import { createTestDatabase, stopTestPostgres } from '../src/testing/index.js';

const N = Number(process.env['BENCH_STATEMENTS'] ?? 2000);
const WARMUP = 200;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const t = await createTestDatabase();
await runMigrations(t.url);
const db = openDatabase(t.url, { max: 2 });
const store = createStore(db.prisma, db.sql);
let n = 0;
const activity = (status: string) => ({
  id: `act-${++n}`,
  organizationId: 'org-bench',
  type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
  status,
  intent: { signRawPayloadIntentV2: { signWith: `0x${randomBytes(20).toString('hex')}`, payload: randomBytes(32).toString('hex'), encoding: 'PAYLOAD_ENCODING_HEXADECIMAL', hashFunction: 'HASH_FUNCTION_NO_OP' } },
  result: { signRawPayloadResult: { r: randomBytes(32).toString('hex'), s: randomBytes(32).toString('hex'), v: '00' } },
  failure: null,
  fingerprint: `sha256:${randomBytes(32).toString('hex')}`,
  createdByUserId: 'user-bench',
  createdAt: new Date(),
});
const event = { eventType: 'ACTIVITY_UPDATES', payload: { activity: { id: 'x', status: 'ACTIVITY_STATUS_COMPLETED' } } };
const time = async (status: string) => {
  const a = activity(status);
  const t0 = process.hrtime.bigint();
  if (!(await store.activities.insertWithEvent(a, event))) throw new Error('not inserted');
  return Number(process.hrtime.bigint() - t0) / 1e6;
};
const linked: number[] = [];
const plain: number[] = [];
try {
  for (let i = 0; i < WARMUP; i++) await time(i % 2 ? 'ACTIVITY_STATUS_COMPLETED' : 'ACTIVITY_STATUS_CONSENSUS_NEEDED');
  for (let i = 0; i < N; i++) {
    // Alternate which goes first, so neither always follows the other.
    if (i % 2) {
      linked.push(await time('ACTIVITY_STATUS_COMPLETED'));
      plain.push(await time('ACTIVITY_STATUS_CONSENSUS_NEEDED'));
    } else {
      plain.push(await time('ACTIVITY_STATUS_CONSENSUS_NEEDED'));
      linked.push(await time('ACTIVITY_STATUS_COMPLETED'));
    }
  }
  const row = (name: string, xs: number[]) => `${name.padEnd(44)} p50 ${pct(xs, 50).toFixed(3)} ms  p90 ${pct(xs, 90).toFixed(3)} ms  p99 ${pct(xs, 99).toFixed(3)} ms`;
  console.log(`${N} statements each, alternating; ${new Date().toISOString()}`);
  console.log(row('activity + outbox event (before 0021)', plain));
  console.log(row('activity + outbox event + audit link', linked));
  console.log(`p50 ratio linked / before: ${(pct(linked, 50) / pct(plain, 50)).toFixed(3)}  (+${(pct(linked, 50) - pct(plain, 50)).toFixed(3)} ms)`);
} finally {
  await db.close();
  await t.drop();
  await stopTestPostgres();
}
