/** An app held by the launcher (launcher-hold.ts), in a real child process over a real IPC channel. */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isStartMessage, isWaitingMessage, LAUNCHER_HOLD_ENV } from './launcher-hold.js';

// What an app's main does: report, hold, report again (the environment it then sees), and end.
const dir = mkdtempSync(join(tmpdir(), 'launcher-hold-'));
const app = join(dir, 'app.mjs');
writeFileSync(
  app,
  [
    `const { holdForLauncher } = await import(${JSON.stringify(new URL('./launcher-hold.ts', import.meta.url).href)});`,
    `process.send({ type: 'loaded', databaseUrl: process.env.DATABASE_URL ?? null });`,
    `await holdForLauncher();`,
    `process.send({ type: 'going-on', databaseUrl: process.env.DATABASE_URL ?? null, hold: process.env.${LAUNCHER_HOLD_ENV} ?? null }, () => process.disconnect());`,
  ].join('\n'),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(held: boolean): { child: ChildProcess; messages: unknown[]; next: (type: string) => Promise<Record<string, unknown>>; exit: Promise<number | null> } {
  const env: NodeJS.ProcessEnv = { ...process.env, ...(held ? { [LAUNCHER_HOLD_ENV]: '1' } : {}) };
  delete env['DATABASE_URL'];
  const child = fork(app, [], { env, execArgv: ['--conditions=@latchkey/source', '--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: unknown[] = [];
  const waiters: Array<() => void> = [];
  child.on('message', (m) => {
    messages.push(m);
    for (const w of waiters.splice(0)) w();
  });
  const next = async (type: string) => {
    for (;;) {
      const found = messages.find((m) => (m as { type?: string }).type === type);
      if (found) return found as Record<string, unknown>;
      if (child.exitCode !== null) throw new Error(`the app exited (${child.exitCode}) before saying ${type}; it said ${JSON.stringify(messages)}`);
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  const exit = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  return { child, messages, next, exit };
}

describe('holdForLauncher', () => {
  it('holds a held app after its code is loaded, until start brings the variables it lacked', async () => {
    const { child, messages, next, exit } = start(true);
    expect(await next('loaded')).toEqual({ type: 'loaded', databaseUrl: null });
    await next('latchkey:waiting');
    // Held: nothing goes on until the launcher says start.
    await new Promise((r) => setTimeout(r, 300));
    expect(messages.map((m) => (m as { type: string }).type)).toEqual(['loaded', 'latchkey:waiting']);
    child.send({ type: 'latchkey:start', env: { DATABASE_URL: 'postgresql://held@127.0.0.1/x' } });
    // The flag is gone once used: a process the app starts itself is not held.
    expect(await next('going-on')).toEqual({ type: 'going-on', databaseUrl: 'postgresql://held@127.0.0.1/x', hold: null });
    expect(await exit).toBe(0);
  });

  it('goes on at once when the launcher does not hold the app (a restart, a start by hand)', async () => {
    const { messages, next, exit } = start(false);
    expect(await next('going-on')).toEqual({ type: 'going-on', databaseUrl: null, hold: null });
    expect(messages.some(isWaitingMessage)).toBe(false);
    expect(await exit).toBe(0);
  });

  it('exits with 1 when the launcher goes away before it said start', async () => {
    const { child, next, exit } = start(true);
    await next('latchkey:waiting');
    child.disconnect();
    expect(await exit).toBe(1);
  });
});

describe('the hold messages', () => {
  it('are recognised by their type, and start carries an environment', () => {
    expect(isWaitingMessage({ type: 'latchkey:waiting' })).toBe(true);
    expect(isWaitingMessage({ type: 'ready' })).toBe(false);
    expect(isWaitingMessage(null)).toBe(false);
    expect(isStartMessage({ type: 'latchkey:start', env: { DATABASE_URL: 'postgresql://x' } })).toBe(true);
    expect(isStartMessage({ type: 'latchkey:start' })).toBe(false);
    expect(isStartMessage({ type: 'latchkey:start', env: null })).toBe(false);
    expect(isStartMessage(undefined)).toBe(false);
  });
});
