/**
 * Deriving a batch of wallet accounts (key, public key, address), on worker threads when the batch
 * is large. A 100-account batch is ~40–60 ms of pure elliptic-curve arithmetic: on the main thread
 * it stalls every other request of the process for that long, and on one core it takes twice
 * what two cores take. The pool splits a batch into contiguous chunks, one per worker; results
 * come back in order. Small batches (and processes with no pool) derive inline.
 *
 * Secrets: the BIP39 seed is computed once on the calling thread (native PBKDF2), or handed in by
 * the caller (a fresh wallet's, fresh-wallets.ts), and copied to each worker for its chunk; every
 * copy, and every private key a worker sends back, is zeroed by its holder once posted or used.
 * Nothing leaves the process.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { AddressFormatError, encodeAddress } from '../addresses/encode-address.js';
import { DerivationError } from './derivation-path.js';
import { SeedDeriver, isValidMnemonic, mnemonicToSeed, type TCurveName } from './derive-key.js';

export interface TAccountSpec {
  curve: TCurveName;
  path: string;
  addressFormat: string;
}

export interface TDerivedAccount {
  /** The canonical path. */
  path: string;
  address: string;
  /** Compressed SEC1 (ECDSA curves) or raw 32 bytes (ed25519). */
  publicKey: Uint8Array;
  /** A secret, the caller's own copy: zero it when done. */
  privateKey: Uint8Array;
}

export interface TDerivationPool {
  /** Worker threads (0: everything inline). */
  readonly size: number;
  /**
   * The accounts of `specs`, in order, from the wallet whose mnemonic is given. `seed`, when the
   * caller has it already (a fresh wallet's, `fresh-wallets.ts`), is that mnemonic's BIP39 seed:
   * the stretch is skipped. The caller keeps it (and zeroes it).
   * @throws DerivationError (invalid mnemonic, bad path) or AddressFormatError, as inline derivation would
   */
  derive(mnemonic: string, specs: readonly TAccountSpec[], seed?: Uint8Array): Promise<TDerivedAccount[]>;
  close(): Promise<void>;
}

/** Derives and encodes `specs` in order. On failure, every key derived so far is zeroed. */
export function deriveAccountBatch(deriver: SeedDeriver, specs: readonly TAccountSpec[]): TDerivedAccount[] {
  const out: TDerivedAccount[] = [];
  try {
    for (const s of specs) {
      const key = deriver.derive(s.curve, s.path);
      try {
        // Derivation has the uncompressed point already: Ethereum's encoder needs no decompression.
        const address = encodeAddress(s.curve, s.addressFormat, key.publicKey, key.uncompressedPublicKey);
        // A buffer of its own: a key may be a view into a larger one (SLIP-0010's I = key ‖ chain
        // code), and postMessage copies whole buffers.
        out.push({ path: key.path, publicKey: key.publicKey, address, privateKey: new Uint8Array(key.privateKey) });
      } finally {
        key.privateKey.fill(0);
      }
    }
    return out;
  } catch (e) {
    for (const a of out) a.privateKey.fill(0);
    throw e;
  }
}

function seedOf(mnemonic: string): Uint8Array {
  if (!isValidMnemonic(mnemonic)) throw new DerivationError('invalid mnemonic');
  return mnemonicToSeed(mnemonic);
}

/** Derivation on the calling thread: for tools, tests and processes without worker threads. */
export function inlineDerivation(): TDerivationPool {
  return {
    size: 0,
    async derive(mnemonic, specs, given) {
      const seed = given ?? seedOf(mnemonic);
      try {
        return deriveAccountBatch(SeedDeriver.fromSeed(seed), specs);
      } finally {
        if (!given) seed.fill(0);
      }
    },
    async close() {},
  };
}

/** What a worker is sent, and what it answers (derivation-worker.ts). */
export interface TDerivationRequest {
  id: number;
  seed: Uint8Array;
  specs: readonly TAccountSpec[];
}
export type TDerivationReply =
  | { id: number; ok: true; accounts: TDerivedAccount[] }
  | { id: number; ok: false; error: { name: string; message: string; allowedCurves?: readonly TCurveName[] } };

/** A worker's error, rebuilt as the class inline derivation would have thrown. */
function rebuildError(e: { name: string; message: string; allowedCurves?: readonly TCurveName[] }): Error {
  if (e.name === 'DerivationError') return new DerivationError(e.message);
  if (e.name === 'AddressFormatError') return new AddressFormatError(e.message, e.allowedCurves ?? []);
  return new Error(`derivation worker: ${e.message}`);
}

export interface TDerivationPoolOptions {
  /** The worker script (the bundled derivation-worker). */
  workerUrl: URL;
  /** Worker threads. Default: the machine's parallelism, at most 4. */
  size?: number;
  /** Batches smaller than this derive inline (default 8): a worker round trip costs ~0.1 ms. */
  minBatch?: number;
  /** Accounts per chunk at least (default 8), so that a batch uses no more workers than it can keep busy. */
  minChunk?: number;
}

interface TSlot {
  worker: Worker | undefined;
  pending: Map<number, { resolve: (a: TDerivedAccount[]) => void; reject: (e: Error) => void }>;
}

export function defaultDerivationWorkers(): number {
  return Math.min(4, availableParallelism());
}

export function createDerivationPool(opts: TDerivationPoolOptions): TDerivationPool {
  const size = opts.size ?? defaultDerivationWorkers();
  const minBatch = opts.minBatch ?? 8;
  const minChunk = opts.minChunk ?? 8;
  const inline = inlineDerivation();
  if (size < 1) return inline;
  const slots: TSlot[] = Array.from({ length: size }, () => ({ worker: undefined, pending: new Map() }));
  let nextId = 1;
  let closed = false;

  const workerOf = (slot: TSlot): Worker => {
    if (slot.worker) return slot.worker;
    const w = new Worker(opts.workerUrl);
    // An idle pool never keeps the process alive (a busy one does: see run).
    w.unref();
    w.on('message', (reply: TDerivationReply) => {
      const task = slot.pending.get(reply.id);
      if (!task) return;
      slot.pending.delete(reply.id);
      if (slot.pending.size === 0) w.unref();
      if (reply.ok) task.resolve(reply.accounts);
      else task.reject(rebuildError(reply.error));
    });
    const fail = (e: Error) => {
      if (slot.worker === w) slot.worker = undefined;
      for (const t of slot.pending.values()) t.reject(e);
      slot.pending.clear();
    };
    w.on('error', (e) => fail(new Error(`derivation worker failed: ${e.message}`)));
    w.on('exit', (code) => fail(new Error(`derivation worker exited (code ${code})`)));
    slot.worker = w;
    return w;
  };

  const run = (slot: TSlot, seed: Uint8Array, specs: readonly TAccountSpec[]) =>
    new Promise<TDerivedAccount[]>((resolve, reject) => {
      const id = nextId++;
      const w = workerOf(slot);
      slot.pending.set(id, { resolve, reject });
      w.ref();
      // postMessage copies the seed; the caller zeroes its own.
      w.postMessage({ id, seed, specs } satisfies TDerivationRequest);
    });

  return {
    size,
    async derive(mnemonic, specs, given) {
      if (closed) throw new Error('the derivation pool is closed');
      if (specs.length < minBatch) return inline.derive(mnemonic, specs, given);
      const chunks = Math.min(size, Math.max(1, Math.floor(specs.length / minChunk)));
      const per = Math.ceil(specs.length / chunks);
      const seed = given ?? seedOf(mnemonic);
      let parts: PromiseSettledResult<TDerivedAccount[]>[];
      try {
        parts = await Promise.allSettled(Array.from({ length: chunks }, (_, i) => run(slots[i]!, seed, specs.slice(i * per, (i + 1) * per))));
      } finally {
        if (!given) seed.fill(0);
      }
      const failed = parts.find((p): p is PromiseRejectedResult => p.status === 'rejected');
      if (failed) {
        for (const p of parts) if (p.status === 'fulfilled') for (const a of p.value) a.privateKey.fill(0);
        throw failed.reason;
      }
      return parts.flatMap((p) => (p as PromiseFulfilledResult<TDerivedAccount[]>).value);
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker?.terminate()));
    },
  };
}
