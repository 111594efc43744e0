/**
 * New wallets' secrets made ahead of time: a random BIP39 mnemonic with its seed (PBKDF2-HMAC-
 * SHA512, 2,048 rounds). The seed stretch is ~2.5 ms of CPU that create_wallet would otherwise
 * spend on the request's path, on the event loop; here it runs on libuv's thread pool
 * (`crypto.pbkdf2`), off the main thread, while the process is otherwise idle, and a new wallet
 * takes a ready pair (docs/BENCHMARKS.md, create_wallet).
 *
 * What this changes, and what it does not: a pair is as random as one made on the request (the
 * same CSPRNG, the same BIP39 code), it is handed out once and only once, and it exists only in
 * this process's memory until then — never written, never logged, gone at exit (`close` zeroes
 * the seeds still waiting). A process holds at most `size` unassigned pairs per mnemonic length
 * asked for, the lengths nobody asks for are never made, and a length is warmed only once a
 * wallet of that length was created (so an idle server holds none).
 */
import { assertMnemonicLength, createMnemonic, mnemonicToSeedAsync } from './derive-key.js';

/** A new wallet's mnemonic and its BIP39 seed. The seed is the taker's own: zero it when done. */
export interface TFreshWallet {
  mnemonic: string;
  seed: Uint8Array;
}

export interface TFreshWalletSource {
  /**
   * A mnemonic of `words` words that nobody was given before, with its seed: a ready one when
   * there is one (no waiting), else made now — off the event loop either way.
   * @throws DerivationError for a length BIP39 does not define; Error once closed
   */
  take(words: number): Promise<TFreshWallet>;
  /** Ready pairs per mnemonic length (for tests and metrics; no secrets). */
  ready(): Record<number, number>;
  /** Zeroes the seeds still waiting and makes no more. */
  close(): void;
}

export interface TFreshWalletOptions {
  /** Pairs kept ready per mnemonic length once that length is used. Default 4; 0 makes each on demand. */
  size?: number;
}

async function makeFresh(words: number): Promise<TFreshWallet> {
  const mnemonic = createMnemonic(words);
  return { mnemonic, seed: await mnemonicToSeedAsync(mnemonic) };
}

export function createFreshWalletSource(opts: TFreshWalletOptions = {}): TFreshWalletSource {
  const size = opts.size ?? 4;
  if (!Number.isInteger(size) || size < 0) throw new Error(`fresh wallets: size must be a non-negative integer, got ${size}`);
  const ready = new Map<number, TFreshWallet[]>();
  /** The lengths a pair is being made for, so a refill never overshoots `size`. */
  const making = new Set<number>();
  let closed = false;

  // One pair at a time per length: a burst of refills would compete with the requests for the
  // cores; between requests there is time enough to make the next one.
  const refill = (words: number) => {
    const queue = ready.get(words) ?? [];
    if (closed || making.has(words) || queue.length >= size) return;
    making.add(words);
    makeFresh(words).then(
      (fresh) => {
        making.delete(words);
        if (closed) return void fresh.seed.fill(0);
        queue.push(fresh);
        ready.set(words, queue);
        refill(words);
      },
      // pbkdf2 fails only for arguments it refuses, which are constants here: nothing to retry.
      () => making.delete(words),
    );
  };

  return {
    async take(words) {
      if (closed) throw new Error('fresh wallets: the source is closed');
      // Before anything is scheduled: a refill for a length BIP39 does not define would throw later.
      assertMnemonicLength(words);
      const fresh = ready.get(words)?.shift();
      // After this turn: making a mnemonic (~0.5 ms of JavaScript) is not the taker's to wait for.
      setImmediate(() => refill(words));
      return fresh ?? makeFresh(words);
    },
    ready: () => Object.fromEntries([...ready].map(([words, queue]) => [words, queue.length])),
    close() {
      closed = true;
      for (const queue of ready.values()) for (const fresh of queue.splice(0)) fresh.seed.fill(0);
    },
  };
}
