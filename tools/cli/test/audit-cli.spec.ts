/**
 * `latchkey audit verify`, the built CLI run as an operator runs it, against a migrated database
 * whose activities were finalised through the persistence layer the platform uses: untouched
 * chains verify (exit 0); one activity row edited with SQL is named — organization, link, activity
 * — with exit 1, and `--org` narrows the check to one chain.
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createStore, openDatabase, type TDatabase } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, stopTestPostgres, type TTestDatabase } from '@latchkey/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'main.mjs');
let testDb: TTestDatabase;
let dataDir: string;
let db: TDatabase;
let env: Record<string, string>;

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, LATCHKEY_LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let n = 0;
const signed = (organizationId: string) => {
  n++;
  return {
    id: `act-cli-${n}`,
    organizationId,
    type: 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2',
    status: 'ACTIVITY_STATUS_COMPLETED',
    intent: { signRawPayloadIntentV2: { signWith: '0xabc', payload: `payload ${n}`, encoding: 'PAYLOAD_ENCODING_TEXT_UTF8', hashFunction: 'HASH_FUNCTION_KECCAK256' } },
    result: { signRawPayloadResult: { r: 'aa', s: 'bb', v: '00' } },
    failure: null,
    fingerprint: `sha256:cli-${n}`,
    createdByUserId: 'user-1',
    createdAt: new Date(Date.UTC(2026, 10, 27, 9, 0, n)),
  };
};

beforeAll(async () => {
  testDb = await createTestDatabase();
  dataDir = await makeTestDataDir();
  env = { DATABASE_URL: testDb.url, LATCHKEY_DATA_DIR: dataDir };
  const m = run(['migrate']);
  expect(m.code, m.stderr).toBe(0);
  db = openDatabase(testDb.url);
  const store = createStore(db.prisma, db.sql);
  for (let i = 0; i < 3; i++) for (const org of ['org-a', 'org-b']) expect(await store.activities.insertWithEvent(signed(org), { eventType: 'ACTIVITY_UPDATES', payload: {} })).toBe(true);
});
afterAll(async () => {
  await db?.close();
  await testDb?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  await stopTestPostgres();
});

describe('latchkey audit verify', () => {
  it('an untouched log verifies: exit 0 and a summary', () => {
    const r = run(['audit', 'verify']);
    expect(r.code, r.stderr).toBe(0);
    // The root organization made by `migrate` has finalised nothing: only the two chains.
    expect(JSON.parse(r.stdout)).toEqual({ ok: true, organizations: 2, entries: 6 });
    expect(JSON.parse(run(['audit', 'verify', '--org', 'org-b']).stdout)).toEqual({ ok: true, organizations: 1, entries: 3 });
  });

  it('one activity edited with SQL: exit 1 naming the organization, the link and the activity; the other chain still verifies', async () => {
    const { rows } = await db.sql.query<{ id: string }>("SELECT activity_id AS id FROM audit_log_entries WHERE organization_id = 'org-a' AND seq = 2");
    const edited = rows[0]!.id;
    await db.sql.query(`UPDATE activities SET intent = jsonb_set(intent, '{signRawPayloadIntentV2,payload}', '"pay me"') WHERE organization_id = 'org-a' AND id = $1`, [edited]);
    const r = run(['audit', 'verify']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`organization org-a: link 2 (activity ${edited}): HASH_MISMATCH`);
    expect(r.stderr).not.toContain('org-b');
    expect(run(['audit', 'verify', '--org', 'org-b']).code).toBe(0);
    expect(run(['audit', 'verify', '--org', 'org-a']).code).toBe(1);
  });

  it('--org without a value is a usage error (exit 2)', () => {
    expect(run(['audit', 'verify', '--org', '']).code).toBe(2);
  });
});
