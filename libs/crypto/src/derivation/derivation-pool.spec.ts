/**
 * The derivation pool gives what inline derivation gives — the same accounts in the same order,
 * the same errors — whether a batch runs inline, on one worker or split across several. The
 * workers here run the worker's TypeScript source (derivation-worker.source.mjs); production runs
 * the same module bundled.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AddressFormatError } from '../addresses/encode-address.js';
import { DerivationError } from './derivation-path.js';
import { createDerivationPool, inlineDerivation, type TAccountSpec, type TDerivationPool } from './derivation-pool.js';
import { createMnemonic, mnemonicToSeed } from './derive-key.js';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const workerUrl = new URL('./derivation-worker.source.mjs', import.meta.url);
const pools: TDerivationPool[] = [];
const pool = (size: number, minBatch = 8) => {
  const p = createDerivationPool({ workerUrl, size, minBatch, minChunk: 4 });
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const eth = (i: number): TAccountSpec => ({ curve: 'CURVE_SECP256K1', path: `m/44'/60'/0'/0/${i}`, addressFormat: 'ADDRESS_FORMAT_ETHEREUM' });
const mixed: TAccountSpec[] = [
  ...Array.from({ length: 20 }, (_, i) => eth(i)),
  { curve: 'CURVE_ED25519', path: "m/44'/501'/0'/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' },
  { curve: 'CURVE_P256', path: "m/44'/0'/0'/0/1", addressFormat: 'ADDRESS_FORMAT_COMPRESSED' },
  { curve: 'CURVE_SECP256K1', path: "m/84'/0'/0'/0/0", addressFormat: 'ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH' },
];
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const plain = (accounts: { path: string; address: string; publicKey: Uint8Array; privateKey: Uint8Array }[]) =>
  accounts.map((a) => ({ path: a.path, address: a.address, publicKey: hex(a.publicKey), privateKey: hex(a.privateKey) }));

describe('derivation pool', () => {
  it('derives the published first account of the development mnemonic, inline and on workers', async () => {
    const inline = await inlineDerivation().derive(DEV_MNEMONIC, [eth(0)]);
    expect(inline[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    const onWorker = await pool(1, 1).derive(DEV_MNEMONIC, [eth(0)]);
    expect(plain(onWorker)).toEqual(plain(inline));
  });

  it('gives the inline accounts, in order, on one worker and split across three', async () => {
    const mnemonic = createMnemonic(24);
    const expected = plain(await inlineDerivation().derive(mnemonic, mixed));
    expect(new Set(expected.map((a) => a.address)).size).toBe(mixed.length);
    expect(plain(await pool(1).derive(mnemonic, mixed))).toEqual(expected);
    const three = pool(3);
    // Concurrent batches on the same workers do not mix.
    const other = createMnemonic(12);
    const [a, b] = await Promise.all([three.derive(mnemonic, mixed), three.derive(other, mixed)]);
    expect(plain(a)).toEqual(expected);
    expect(plain(b)).toEqual(plain(await inlineDerivation().derive(other, mixed)));
  });

  it('derives from a seed the caller already has (a fresh wallet’s) as from its mnemonic, and leaves that seed to the caller', async () => {
    const mnemonic = createMnemonic(12);
    const expected = plain(await inlineDerivation().derive(mnemonic, mixed));
    for (const p of [inlineDerivation(), pool(2)]) {
      const seed = mnemonicToSeed(mnemonic);
      const before = hex(seed);
      expect(plain(await p.derive(mnemonic, mixed, seed))).toEqual(expected);
      expect(plain(await p.derive(mnemonic, [eth(0)], seed))).toEqual(expected.slice(0, 1));
      expect(hex(seed)).toBe(before);
    }
  });

  it('throws what inline derivation throws, and keeps working afterwards', async () => {
    const p = pool(2);
    await expect(p.derive('not a mnemonic at all', mixed)).rejects.toBeInstanceOf(DerivationError);
    const badFormat = [...mixed, { curve: 'CURVE_ED25519' as const, path: "m/44'/60'/0'/0'", addressFormat: 'ADDRESS_FORMAT_ETHEREUM' }];
    const err = await p.derive(DEV_MNEMONIC, badFormat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AddressFormatError);
    expect((err as AddressFormatError).allowedCurves).toEqual(['CURVE_SECP256K1']);
    const softEd25519 = [...mixed, { curve: 'CURVE_ED25519' as const, path: "m/44'/501'/0/0'", addressFormat: 'ADDRESS_FORMAT_SOLANA' }];
    await expect(p.derive(DEV_MNEMONIC, softEd25519)).rejects.toThrow(/only hardened derivation/);
    expect((await p.derive(DEV_MNEMONIC, mixed)).length).toBe(mixed.length);
  });

  it('keeps the process alive while it derives, and lets it exit once idle', () => {
    // A process whose only work is a pending derivation: it must print the account, then exit by itself.
    const script = [
      `const { createDerivationPool } = await import(${JSON.stringify(new URL('./derivation-pool.ts', import.meta.url).href)});`,
      `const pool = createDerivationPool({ workerUrl: new URL(${JSON.stringify(workerUrl.href)}), size: 1, minBatch: 1 });`,
      `pool.derive(${JSON.stringify(DEV_MNEMONIC)}, [${JSON.stringify(eth(0))}]).then((a) => console.log(a[0].address));`,
    ].join('\n');
    // A file, not `-e`: workers inherit the parent's execArgv, and `--input-type` is not for them.
    const file = join(mkdtempSync(join(tmpdir(), 'derivation-pool-')), 'main.mjs');
    writeFileSync(file, script);
    const run = spawnSync(process.execPath, ['--conditions=@latchkey/source', '--import', 'tsx', file], { encoding: 'utf8', timeout: 30_000 });
    rmSync(dirname(file), { recursive: true, force: true });
    expect(run.stdout.trim(), run.stderr).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(run.signal).toBeNull();
    expect(run.status).toBe(0);
  });

  it('refuses work once closed', async () => {
    const p = pool(1);
    await p.close();
    await expect(p.derive(DEV_MNEMONIC, mixed)).rejects.toThrow(/closed/);
  });
});
