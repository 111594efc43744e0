/**
 * The built `latchkey` bin (dist/latchkey.js, what `npx latchkey` runs): the connection JSON on
 * stdout once ready, served by the instance; closing stdin stops it and removes its data folder;
 * wrong calls exit 2 naming the problem. Runs the build output, as a consumer would.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Turnkey } from '@turnkey/sdk-server';
import { describe, expect, it } from 'vitest';

const BIN = join(import.meta.dirname, '..', 'dist', 'latchkey.js');

describe('latchkey bin', () => {
  it('start --ephemeral prints the connection JSON when ready, then stops and cleans up when stdin closes', async () => {
    expect(existsSync(BIN), `${BIN} is built by the testkit's build target`).toBe(true);
    const child = spawn(process.execPath, [BIN, 'start', '--ephemeral'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Every stdout line, queued: a line may arrive before the test asks for it.
    const queued: string[] = [];
    const waiting: ((l: string) => void)[] = [];
    createInterface({ input: child.stdout }).on('line', (l) => (waiting.length ? waiting.shift()!(l) : queued.push(l)));
    const nextLine = () =>
      new Promise<string>((resolve, reject) => {
        if (queued.length) return resolve(queued.shift()!);
        waiting.push(resolve);
        void exited.then((code) => reject(new Error(`exited ${code} before printing a line: ${stderr}`)));
      });
    const first = await nextLine();
    const conn = JSON.parse(first) as Record<string, string>;
    expect(Object.keys(conn)).toEqual(
      expect.arrayContaining(['apiBaseUrl', 'authProxyUrl', 'apps', 'organizationId', 'apiPublicKey', 'apiPrivateKey', 'signerPublicKey', 'notarizerPublicKey', 'otpVerifierPublicKey', 'dataDir']),
    );
    // The default apps: no admin console unless asked for (--apps).
    expect(conn['apps']).toBe('public-api,auth-proxy,webhook-worker');
    expect(conn['adminUrl']).toBeUndefined();
    const client = new Turnkey({ apiBaseUrl: conn['apiBaseUrl']!, apiPublicKey: conn['apiPublicKey']!, apiPrivateKey: conn['apiPrivateKey']!, defaultOrganizationId: conn['organizationId']! }).apiClient();
    expect((await client.getWhoami({ organizationId: conn['organizationId']! })).organizationId).toBe(conn['organizationId']);

    // A captured OTP follows as one JSON line.
    await client.initOtp({ otpType: 'OTP_TYPE_EMAIL', contact: 'bob@example.test', appName: 'Bin' });
    const next = JSON.parse(await nextLine()) as { message: { channel: string; to: string; code?: string } };
    expect(next.message).toMatchObject({ channel: 'email', to: 'bob@example.test' });
    expect(next.message.code).toMatch(/^[0-9A-Z]{9}$/);

    child.stdin.end();
    expect(await exited).toBe(0);
    expect(existsSync(conn['dataDir']!)).toBe(false);
    await expect(fetch(`${conn['apiBaseUrl']}/healthz`)).rejects.toThrow();
  }, 120_000);

  it('refuses wrong calls with exit code 2 and says what is wrong', () => {
    const cases: [string[], RegExp][] = [
      [['start', '--ephemeral', '--seed', 'nope'], /--seed must be "fixed" or "random"/],
      [['start', '--ephemeral', '--env', 'NOVALUE'], /--env wants NAME=VALUE/],
      [['start', '--persistent'], /unknown option "--persistent"/],
      [['start', '--seed', 'fixed'], /needs --ephemeral/],
      [['start', '--ephemeral', '--apps', 'public-api,frontend'], /--apps wants a comma-separated list of public-api, auth-proxy, admin, webhook-worker, not frontend/],
      [['start', '--ephemeral', '--apps', 'auth-proxy'], /--apps must include public-api/],
    ];
    for (const [args, message] of cases) {
      const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
  });
});
