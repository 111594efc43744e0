/**
 * Stale pid files never make the embedded PostgreSQL signal, or wait for, a process that is not
 * this data folder's postmaster.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { makeTestDataDir } from '../testing/test-database.js';
import { checkPidFile } from './check-pid-file.js';
import { copyClusterTemplate, findRunningEmbeddedPostgres, startEmbeddedPostgres, type TEmbeddedPostgres } from './start-embedded-postgres.js';

const strangers: ChildProcess[] = [];
const dirs: string[] = [];
let cluster: TEmbeddedPostgres | undefined;

/** An unrelated live process, as a reused pid would find one. */
async function stranger(): Promise<ChildProcess> {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  strangers.push(c);
  await new Promise((r) => c.once('spawn', r));
  return c;
}
const alive = (c: ChildProcess) => c.exitCode === null && c.signalCode === null;

afterEach(async () => {
  await cluster?.stop();
  cluster = undefined;
});
afterAll(async () => {
  for (const c of strangers) c.kill('SIGKILL');
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('checkPidFile', () => {
  it('trusts a pid only when the live process looks like the writer and predates the file', async () => {
    const dir = await makeTestDataDir();
    dirs.push(dir);
    const file = join(dir, 'x.pid');
    const isSleep = (argv: string[]) => argv[0] === 'sleep';
    expect(await checkPidFile(file, isSleep)).toEqual({ state: 'absent' });

    const s = await stranger();
    await writeFile(file, `${s.pid}\n`);
    expect(await checkPidFile(file, isSleep)).toMatchObject({ state: 'live', pid: s.pid });
    expect(await checkPidFile(file, (argv) => argv[0] === 'postgres')).toMatchObject({ state: 'stale', reason: expect.stringContaining('another program (sleep)') });

    // Written an hour ago: a process that started a moment ago cannot be its writer (pid reuse).
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(file, anHourAgo, anHourAgo);
    expect(await checkPidFile(file, isSleep)).toMatchObject({ state: 'stale', reason: expect.stringContaining('started after') });

    s.kill('SIGKILL');
    await new Promise((r) => s.once('exit', r));
    await writeFile(file, `${s.pid}\n`);
    expect(await checkPidFile(file, isSleep)).toMatchObject({ state: 'stale', reason: expect.stringContaining('gone') });
    await writeFile(file, 'garbage\n');
    expect(await checkPidFile(file, isSleep)).toMatchObject({ state: 'stale', pid: undefined });
  });
});

describe('startEmbeddedPostgres with a stale postmaster.pid', () => {
  it('leaves the unrelated process that now has the pid alone, and starts', async () => {
    const dataDir = await makeTestDataDir();
    dirs.push(dataDir);
    const first = await startEmbeddedPostgres({ dataDir });
    await first.stop();

    // As a crash leaves it, but the pid has since been given to another program.
    const s = await stranger();
    const pidFile = join(dataDir, 'pg', 'postmaster.pid');
    await writeFile(pidFile, [s.pid, join(dataDir, 'pg'), Math.floor(Date.now() / 1000), first.port, '', '127.0.0.1', '  5432001         0', 'ready   ', ''].join('\n'));
    expect(await findRunningEmbeddedPostgres(dataDir)).toBeUndefined();

    cluster = await startEmbeddedPostgres({ dataDir });
    expect(alive(s)).toBe(true);
    await new Promise((r) => setTimeout(r, 200)); // a signal would have been delivered by now
    expect(alive(s)).toBe(true);
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    expect((await c.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await c.end();
    // The real postmaster's pid file is trusted again.
    expect((await findRunningEmbeddedPostgres(dataDir))?.port).toBe(cluster.port);
  });
});

describe('startEmbeddedPostgres from a template', () => {
  it('starts a copy of the template cluster, its data included, and leaves the template as it was', async () => {
    const templateDir = await makeTestDataDir();
    const dataDir = await makeTestDataDir();
    dirs.push(templateDir, dataDir);
    // The template: a cluster with a row in it, cleanly stopped.
    const original = await startEmbeddedPostgres({ dataDir: templateDir });
    const seed = new pg.Client({ connectionString: original.url });
    await seed.connect();
    await seed.query("CREATE TABLE marker (v text); INSERT INTO marker VALUES ('from the template')");
    await seed.end();
    await original.stop();

    cluster = await startEmbeddedPostgres({ dataDir, template: templateDir });
    expect(cluster.url).not.toBe(original.url);
    const c = new pg.Client({ connectionString: cluster.url });
    await c.connect();
    expect((await c.query('SELECT v FROM marker')).rows).toEqual([{ v: 'from the template' }]);
    await c.query("INSERT INTO marker VALUES ('only in the copy')");
    await c.end();
    await cluster.stop();
    cluster = undefined;

    // A data folder with a cluster is started as it is: the template is not copied over it.
    cluster = await startEmbeddedPostgres({ dataDir, template: templateDir });
    const again = new pg.Client({ connectionString: cluster.url });
    await again.connect();
    expect((await again.query('SELECT count(*)::int AS n FROM marker')).rows).toEqual([{ n: 2 }]);
    await again.end();
    await cluster.stop();
    cluster = undefined;

    const template = await startEmbeddedPostgres({ dataDir: templateDir });
    const t = new pg.Client({ connectionString: template.url });
    await t.connect();
    expect((await t.query('SELECT count(*)::int AS n FROM marker')).rows).toEqual([{ n: 1 }]);
    await t.end();
    await template.stop();
    await expect(copyClusterTemplate(templateDir, dataDir)).rejects.toThrow(/already exists/);
  }, 120_000);
});
