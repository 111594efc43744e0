/** The built CLI, run as a user runs it (`node tools/cli/dist/main.mjs …`). */
import { spawnSync } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isCompressedP256PublicKey, generateP256KeyPair } from '@latchkey/crypto';
import { createStore, loadMigrations, openDatabase } from '@latchkey/persistence';
import { createTestDatabase, makeTestDataDir, stopTestPostgres } from '@latchkey/persistence/testing';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', 'dist', 'main.mjs');

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: '', LATCHKEY_LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterAll(stopTestPostgres);

describe('latchkey CLI', () => {
  it('keygen prints a fresh P-256 key pair as JSON', () => {
    const a = run(['keygen']);
    const b = run(['keygen']);
    expect(a.code).toBe(0);
    const kp = JSON.parse(a.stdout) as { publicKey: string; privateKey: string };
    expect(isCompressedP256PublicKey(kp.publicKey)).toBe(true);
    expect(kp.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(b.stdout).privateKey).not.toBe(kp.privateKey);
  });

  it('refuses unknown commands and bad flags with exit code 2 and the usage', () => {
    expect(run(['frobnicate']).code).toBe(2);
    const bad = run(['org', 'create', '--name', 'N', '--user-name', 'U', '--api-public-key', 'zz']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/compressed P-256/);
    expect(run(['org', 'create', '--name']).code).toBe(2);
  });

  it('migrate prepares a database and writes bootstrap.json once; org create adds a root organization', async () => {
    const db = await createTestDatabase();
    const dataDir = await makeTestDataDir();
    try {
      const env = { DATABASE_URL: db.url, LATCHKEY_DATA_DIR: dataDir };
      const m = run(['migrate'], env);
      expect(m.code, m.stderr).toBe(0);
      expect(JSON.parse(m.stdout)).toMatchObject({ applied: (await loadMigrations()).map((x) => x.name), rootOrganizationCreated: true });
      const boot = JSON.parse(await readFile(join(dataDir, 'bootstrap.json'), 'utf8'));
      expect(boot).toMatchObject({ organizationId: expect.any(String), apiPrivateKey: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await stat(join(dataDir, 'bootstrap.json'))).mode & 0o777).toBe(0o600);
      expect(JSON.parse(run(['migrate'], env).stdout)).toMatchObject({ applied: [], rootOrganizationCreated: false, rootOrganizationId: boot.organizationId });

      const kp = generateP256KeyPair();
      const o = run(['org', 'create', '--name', 'Acme', '--user-name', 'alice', '--api-public-key', kp.publicKey], env);
      expect(o.code, o.stderr).toBe(0);
      const ids = JSON.parse(o.stdout) as { organizationId: string; userId: string; apiKeyId: string };
      const conn = openDatabase(db.url);
      try {
        const store = createStore(conn.prisma);
        expect((await store.organizations.findById(ids.organizationId))?.name).toBe('Acme');
        expect((await store.credentials.findApiKeys([ids.organizationId], kp.publicKey)).map((k) => k.id)).toEqual([ids.apiKeyId]);
        expect((await store.organizations.rootQuorumMembers(ids.organizationId)).map((r) => r.userId)).toEqual([ids.userId]);
      } finally {
        await conn.close();
      }
    } finally {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
