/**
 * The command line itself: help, usage errors and exit codes, run as a user runs it (the built
 * `dist/main.mjs`; the project's test target builds it first). Database commands are covered by
 * test/cli.spec.ts.
 */
// latchkey-tests: opens no database (every run below empties DATABASE_URL and names no data folder)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { isCompressedP256PublicKey } from '@latchkey/crypto';
import { describe, expect, it } from 'vitest';
import type { TCliCommand } from './cli-command.js';
import { COMMANDS } from './commands/index.js';
import { buildProgram, EXIT_CODES } from './program.js';

const CLI = join(import.meta.dirname, '..', 'dist', 'main.mjs');

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: '', LATCHKEY_LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const NAMES = COMMANDS.map((c) => c.name);

describe('latchkey --help', () => {
  it('lists every command exactly once, on stdout, exit 0', () => {
    const r = run('--help');
    expect(r.code).toBe(EXIT_CODES.ok);
    expect(r.stderr).toBe('');
    expect(NAMES).toEqual(['start', 'migrate', 'keygen', 'org create', 'proxy enable', 'proxy set', 'webhooks rotate-key', 'webhooks redeliver', 'admin link', 'audit verify', 'gas relayer']);
    for (const name of NAMES) {
      const lines = r.stdout.split('\n').filter((l) => l.startsWith(`  ${name} `) || l === `  ${name}`);
      expect([name, lines.length]).toEqual([name, 1]);
    }
  });

  it.each(NAMES)('%s --help shows its usage and options, exit 0', (name) => {
    const r = run(...name.split(' '), '--help');
    expect(r.code).toBe(EXIT_CODES.ok);
    expect(r.stdout).toMatch(new RegExp(`^Usage: latchkey ${name}\\b`));
    for (const o of COMMANDS.find((c) => c.name === name)!.options ?? []) expect(r.stdout).toContain(o.flags);
  });

  it('org create --help spells out the required options in its usage line', () => {
    expect(run('org', 'create', '--help').stdout.split('\n')[0]).toBe('Usage: latchkey org create --name <name> --user-name <name> --api-public-key <hex> [--user-email <email>]');
  });
});

describe('usage errors exit 2 with the message and help on stderr, nothing on stdout', () => {
  it.each([
    [['frobnicate'], /unknown command 'frobnicate'/],
    [[], /Usage: latchkey/],
    [['org'], /Usage: latchkey org/],
    [['org', 'delete'], /unknown command 'delete'/],
    [['keygen', '--bogus'], /unknown option '--bogus'/],
    [['keygen', 'extra'], /too many arguments/],
    [['org', 'create', '--name'], /'--name <name>' argument missing/],
    [['org', 'create', '--name', 'N', '--user-name', 'U'], /required option '--api-public-key <hex>' not specified/],
    [['org', 'create', '--name', 'N', '--user-name', 'U', '--api-public-key', 'zz'], /compressed P-256/],
  ])('latchkey %j', (args, message) => {
    const r = run(...args);
    expect(r.code).toBe(EXIT_CODES.usage);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

describe('latchkey keygen', () => {
  it('prints only the key pair as JSON', () => {
    const r = run('keygen');
    expect(r.code).toBe(EXIT_CODES.ok);
    const kp = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(kp).sort()).toEqual(['privateKey', 'publicKey']);
    expect(isCompressedP256PublicKey(kp['publicKey']!)).toBe(true);
    expect(kp['privateKey']).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('buildProgram', () => {
  const io = { stdout: () => undefined, stderr: () => undefined };
  const command = (name: string): TCliCommand<never> => ({ name, summary: name, run: () => undefined });

  it('refuses two commands of the same name', () => {
    expect(() => buildProgram([command('keygen'), command('keygen')], io, { env: {} })).toThrow(/two CLI commands are named "keygen"/);
  });

  it('refuses a group without a summary in COMMAND_GROUPS', () => {
    expect(() => buildProgram([command('nosuchgroup list')], io, { env: {} })).toThrow(/"nosuchgroup" has no summary in COMMAND_GROUPS/);
  });
});
