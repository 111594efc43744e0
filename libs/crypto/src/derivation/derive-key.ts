/**
 * HD derivation from a wallet's mnemonic: secp256k1 follows BIP32 (`@scure/bip32`); ed25519 and
 * P-256 follow SLIP-0010 (`./slip10.ts`). Parent nodes are cached per seed and per curve while one
 * batch of accounts is derived, since deriving the full path from the root costs ~5× a single
 * child step.
 */
import { HDKey } from '@scure/bip32';
import { pbkdf2Sync } from 'node:crypto';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DerivationError, HARDENED_OFFSET, parseDerivationPath } from './derivation-path.js';
import { slip10DeriveChild, slip10MasterNode, slip10PublicKey, type TSlip10Curve, type TSlip10Node } from './slip10.js';

export type TCurveName = 'CURVE_SECP256K1' | 'CURVE_ED25519' | 'CURVE_P256';

/**
 * BIP39 mnemonic → 64-byte seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic", NFKD), on
 * node:crypto: byte-identical to @scure/bip39's `mnemonicToSeedSync` and ~7× faster, which matters
 * because every signature with a wallet account opens its seed.
 */
export function mnemonicToSeed(mnemonic: string): Uint8Array {
  return new Uint8Array(pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512'));
}

export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;

/** A fresh BIP39 English mnemonic of 12–24 words. */
export function createMnemonic(words: number = 12): string {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(words)) throw new DerivationError(`mnemonic length must be one of ${MNEMONIC_LENGTHS.join(', ')}`);
  return generateMnemonic(wordlist, (words / 3) * 32);
}

export function isValidMnemonic(mnemonic: string): boolean {
  return validateMnemonic(mnemonic, wordlist);
}

export interface TDerivedKey {
  curve: TCurveName;
  path: string;
  /** 32-byte private key. A secret: never log it, zero it when done (it is the caller's own copy). */
  privateKey: Uint8Array;
  /**
   * Compressed SEC1 public key (33 bytes) for CURVE_SECP256K1 and CURVE_P256; the raw RFC 8032
   * public key (32 bytes) for CURVE_ED25519.
   */
  publicKey: Uint8Array;
}

/**
 * Follows `indexes` down from `root`, reusing cached ancestors and caching every node but the leaf:
 * the accounts of one wallet are siblings (…/0/0, …/0/1, …), so they share every ancestor, while
 * leaves are rarely asked for twice. Cache keys are the numeric path, one map per curve.
 */
function walk<TNode>(root: TNode, indexes: readonly number[], cache: Map<string, TNode>, child: (parent: TNode, index: number) => TNode): TNode {
  let node = root;
  let prefix = 'm';
  for (const [i, idx] of indexes.entries()) {
    prefix += `/${idx}`;
    const cached = cache.get(prefix);
    if (cached) {
      node = cached;
      continue;
    }
    node = child(node, idx);
    if (i < indexes.length - 1) cache.set(prefix, node);
  }
  return node;
}

/** Derives keys of one seed, caching intermediate nodes between calls. */
export class SeedDeriver {
  private readonly root: HDKey;
  private readonly cache = new Map<string, HDKey>();
  private readonly slip10Roots: Record<TSlip10Curve, TSlip10Node>;
  private readonly slip10Caches: Record<TSlip10Curve, Map<string, TSlip10Node>> = { ed25519: new Map(), nist256p1: new Map() };

  private constructor(seed: Uint8Array) {
    this.root = HDKey.fromMasterSeed(seed);
    // Two HMACs each: cheaper to compute now than to keep the seed around for later.
    this.slip10Roots = { ed25519: slip10MasterNode('ed25519', seed), nist256p1: slip10MasterNode('nist256p1', seed) };
  }

  /** @throws DerivationError for an invalid mnemonic. */
  static fromMnemonic(mnemonic: string): SeedDeriver {
    if (!isValidMnemonic(mnemonic)) throw new DerivationError('invalid mnemonic');
    const seed = mnemonicToSeed(mnemonic);
    try {
      return new SeedDeriver(seed);
    } finally {
      // Our own buffer: nothing needs the seed once the master nodes exist.
      seed.fill(0);
    }
  }

  /**
   * From a raw BIP32 seed (16–64 bytes); used by the published test vectors. The caller keeps
   * ownership of `seed`.
   * @throws DerivationError (or `@scure/bip32`'s Error) for a seed of the wrong length.
   */
  static fromSeed(seed: Uint8Array): SeedDeriver {
    return new SeedDeriver(seed);
  }

  /**
   * The key at `path` on `curve`. Returned byte arrays are fresh copies: wiping them cannot
   * corrupt the cache.
   * @throws DerivationError for a malformed path, a non-hardened segment on CURVE_ED25519, or an
   *   unsupported curve.
   */
  derive(curve: TCurveName, path: string): TDerivedKey {
    const { indexes, canonical } = parseDerivationPath(path);
    switch (curve) {
      case 'CURVE_SECP256K1': {
        const node = walk(this.root, indexes, this.cache, (parent, idx) => parent.deriveChild(idx));
        // HDKey's getters return copies, so handing these out is safe.
        const { privateKey, publicKey } = node;
        if (!privateKey || !publicKey) throw new DerivationError(`derivation failed for ${canonical}`);
        return { curve, path: canonical, privateKey, publicKey };
      }
      case 'CURVE_ED25519': {
        // Refused up front, naming the segment, before any key material is touched.
        const soft = indexes.findIndex((idx) => idx < HARDENED_OFFSET);
        if (soft !== -1) {
          const segment = canonical.split('/')[soft + 1] ?? String(indexes[soft]);
          throw new DerivationError(
            `ed25519 supports only hardened derivation (SLIP-0010): segment ${JSON.stringify(segment)} of ${canonical} is not hardened; write it as ${JSON.stringify(`${segment}'`)}`,
          );
        }
        return this.deriveSlip10(curve, 'ed25519', indexes, canonical);
      }
      case 'CURVE_P256':
        return this.deriveSlip10(curve, 'nist256p1', indexes, canonical);
      default:
        return assertNever(curve);
    }
  }

  private deriveSlip10(curve: TCurveName, slip10Curve: TSlip10Curve, indexes: readonly number[], canonical: string): TDerivedKey {
    const node = walk(this.slip10Roots[slip10Curve], indexes, this.slip10Caches[slip10Curve], (parent, idx) => slip10DeriveChild(slip10Curve, parent, idx));
    // The node may be the root or a cached ancestor (when asked for a path that is a prefix of an
    // earlier one): copy, so that the caller's wipe only wipes its own bytes.
    const privateKey = node.privateKey.slice();
    return { curve, path: canonical, privateKey, publicKey: slip10PublicKey(slip10Curve, privateKey) };
  }
}

function assertNever(value: never): never {
  throw new DerivationError(`unsupported curve ${JSON.stringify(String(value))}`);
}
