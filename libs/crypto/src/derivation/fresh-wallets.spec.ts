/**
 * Fresh wallets made ahead of time are what a wallet made on the request would be: a valid BIP39
 * mnemonic of the length asked for, with exactly its seed, never handed out twice; the source
 * keeps `size` ready per length once that length is used, and none after `close`.
 */
import { describe, expect, it } from 'vitest';
import { DerivationError } from './derivation-path.js';
import { MNEMONIC_LENGTHS, isValidMnemonic, mnemonicToSeed } from './derive-key.js';
import { createFreshWalletSource } from './fresh-wallets.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function until(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('fresh wallets', () => {
  it.each(MNEMONIC_LENGTHS)('gives a valid %i-word mnemonic with its own BIP39 seed', async (words) => {
    const source = createFreshWalletSource();
    try {
      const fresh = await source.take(words);
      expect(fresh.mnemonic.split(' ')).toHaveLength(words);
      expect(isValidMnemonic(fresh.mnemonic)).toBe(true);
      expect(hex(fresh.seed)).toBe(hex(mnemonicToSeed(fresh.mnemonic)));
    } finally {
      source.close();
    }
  });

  it('keeps `size` ready once a length is used, only for that length, and never gives one twice', async () => {
    const source = createFreshWalletSource({ size: 3 });
    try {
      expect(source.ready()).toEqual({});
      const first = await source.take(12);
      await until('three ready 12-word wallets', () => source.ready()[12] === 3);
      expect(source.ready()).toEqual({ 12: 3 });
      const seen = new Set([first.mnemonic]);
      for (let i = 0; i < 12; i++) {
        const fresh = await source.take(12);
        expect(seen.has(fresh.mnemonic)).toBe(false);
        seen.add(fresh.mnemonic);
        expect(hex(fresh.seed)).toBe(hex(mnemonicToSeed(fresh.mnemonic)));
      }
      await until('the refill after twelve takes', () => source.ready()[12] === 3);
    } finally {
      source.close();
    }
  });

  it('with size 0 keeps nothing ready and still gives a wallet each time', async () => {
    const source = createFreshWalletSource({ size: 0 });
    try {
      const a = await source.take(24);
      const b = await source.take(24);
      expect(a.mnemonic).not.toBe(b.mnemonic);
      await new Promise((r) => setTimeout(r, 50));
      expect(source.ready()).toEqual({});
    } finally {
      source.close();
    }
  });

  it('refuses a length BIP39 does not define, naming the ones it does', async () => {
    const source = createFreshWalletSource();
    try {
      await expect(source.take(13)).rejects.toThrow(DerivationError);
      await expect(source.take(13)).rejects.toThrow(/one of 12, 15, 18, 21, 24/);
      expect(source.ready()).toEqual({});
    } finally {
      source.close();
    }
  });

  it('after close gives nothing more and keeps nothing ready; a seed already taken stays its taker’s', async () => {
    const source = createFreshWalletSource({ size: 2 });
    const taken = await source.take(12);
    const before = hex(taken.seed);
    await until('two ready', () => source.ready()[12] === 2);
    source.close();
    expect(source.ready()).toEqual({ 12: 0 });
    await expect(source.take(12)).rejects.toThrow(/closed/);
    expect(hex(taken.seed)).toBe(before);
  });
});
