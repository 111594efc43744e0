/**
 * HD derivation from a wallet's mnemonic: secp256k1 follows BIP32 (`@scure/bip32`); ed25519 and
 * P-256 follow SLIP-0010 (`./slip10.ts`). Parent nodes are cached per seed and per curve while one
 * batch of accounts is derived, since deriving the full path from the root costs ~5× a single
 * child step. The last secp256k1 step is computed here (see `bip32Leaf`) so that the one point
 * multiplication yields both SEC1 forms of the public key.
 */
import { secp256k1 } from '../keys/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { pbkdf2Sync } from 'node:crypto';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { DerivationError, HARDENED_OFFSET, parseDerivationPath } from './derivation-path.js';
import { slip10DeriveChild, slip10MasterNode, slip10PublicKey, type TSlip10Curve, type TSlip10Node } from './slip10.js';
import { assertNever } from '@latchkey/domain';

export type TCurveName = 'CURVE_SECP256K1' | 'CURVE_ED25519' | 'CURVE_P256';

/**
 * BIP39 mnemonic → 64-byte seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic", NFKD), on
 * node:crypto: byte-identical to @scure/bip39's `mnemonicToSeedSync` and ~7× faster, which matters
 * because every signature with a wallet account opens its seed.
 */
export function mnemonicToSeed(mnemonic: string): Uint8Array {
  const stretched = pbkdf2Sync(Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512');
  // A copy of our own (never a view into Node's buffer pool); the intermediate is wiped.
  const seed = new Uint8Array(stretched);
  stretched.fill(0);
  return seed;
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
  /**
   * CURVE_SECP256K1 only: the uncompressed SEC1 public key (65 bytes, 0x04 ‖ x ‖ y), from the same
   * point as `publicKey`. Ethereum and Tron hash this form; handing it on (`encodeAddress`'s last
   * argument) spares the encoder a decompression (a modular square root, ~100 µs with noble).
   */
  uncompressedPublicKey?: Uint8Array;
}

/**
 * The parent of the node at `indexes` (the root for a path of length ≤ 1), reusing cached ancestors
 * and caching every node it computes: the accounts of one wallet are siblings (…/0/0, …/0/1, …),
 * so they share every ancestor, while leaves are rarely asked for twice and are never cached.
 * Cache keys are the numeric path, one map per curve.
 */
function parentOf<TNode>(root: TNode, indexes: readonly number[], cache: Map<string, TNode>, child: (parent: TNode, index: number) => TNode): TNode {
  let node = root;
  let prefix = 'm';
  for (const idx of indexes.slice(0, -1)) {
    prefix += `/${idx}`;
    const cached = cache.get(prefix);
    if (cached) {
      node = cached;
      continue;
    }
    node = child(node, idx);
    cache.set(prefix, node);
  }
  return node;
}

const Secp256k1Fn = secp256k1.Point.Fn;

/** The key pair of a secp256k1 HD node, with both SEC1 forms of its public key. */
function secp256k1KeyOfNode(node: HDKey, canonical: string): Omit<TDerivedKey, 'curve' | 'path'> {
  // HDKey's getters return copies, so handing these out is safe.
  const { privateKey, publicKey } = node;
  if (!privateKey || !publicKey) throw new DerivationError(`derivation failed for ${canonical}`);
  return { privateKey, publicKey, uncompressedPublicKey: secp256k1.Point.fromBytes(publicKey).toBytes(false) };
}

/**
 * BIP32 CKDpriv for the last step of a path: I = HMAC-SHA512(c_par, data), k = parse256(I_L) +
 * k_par mod n. Done here rather than with `HDKey.deriveChild` because HDKey keeps only the
 * compressed public key, so the Ethereum encoder would have to decompress it again; here the
 * one multiplication gives both forms (~25% less CPU per derived Ethereum account). In the cases
 * BIP32 declares invalid (I_L ≥ n or k = 0, probability ~2^-127), this defers to HDKey, whose rule
 * for them (move on to the next index) stays the one source of truth. Results are byte-identical
 * to `HDKey.deriveChild` (derive-key.spec.ts checks vectors and random paths against it).
 */
function bip32Leaf(parent: HDKey, index: number, canonical: string): Omit<TDerivedKey, 'curve' | 'path'> {
  const parentKey = parent.privateKey;
  const chainCode = parent.chainCode;
  const parentPublicKey = parent.publicKey;
  if (!parentKey || !chainCode || !parentPublicKey) throw new DerivationError(`derivation failed for ${canonical}`);
  // Hardened: 0x00 ‖ ser256(k_par) ‖ ser32(i). Normal: serP(K_par) ‖ ser32(i).
  const data = new Uint8Array(37);
  if (index >= HARDENED_OFFSET) data.set(parentKey, 1);
  else data.set(parentPublicKey, 0);
  new DataView(data.buffer).setUint32(33, index, false);
  const I = hmac(sha512, chainCode, data);
  data.fill(0);
  chainCode.fill(0);
  try {
    const tweak = bytesToNumberBE(I.subarray(0, 32));
    const k = Secp256k1Fn.create(tweak + bytesToNumberBE(parentKey));
    if (tweak >= Secp256k1Fn.ORDER || k === 0n) return secp256k1KeyOfNode(parent.deriveChild(index), canonical);
    const point = secp256k1.Point.BASE.multiply(k);
    return { privateKey: Secp256k1Fn.toBytes(k), publicKey: point.toBytes(true), uncompressedPublicKey: point.toBytes(false) };
  } finally {
    I.fill(0);
    parentKey.fill(0);
  }
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
        const parent = parentOf(this.root, indexes, this.cache, (node, idx) => node.deriveChild(idx));
        const leaf = indexes.at(-1);
        const key = leaf === undefined ? secp256k1KeyOfNode(parent, canonical) : bip32Leaf(parent, leaf, canonical);
        return { curve, path: canonical, ...key };
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
        return assertNever(curve, (v) => new DerivationError(`unsupported curve ${JSON.stringify(String(v))}`));
    }
  }

  private deriveSlip10(curve: TCurveName, slip10Curve: TSlip10Curve, indexes: readonly number[], canonical: string): TDerivedKey {
    const child = (parent: TSlip10Node, idx: number) => slip10DeriveChild(slip10Curve, parent, idx);
    const parent = parentOf(this.slip10Roots[slip10Curve], indexes, this.slip10Caches[slip10Curve], child);
    const leaf = indexes.at(-1);
    // The root is shared: copy it, so that the caller's wipe only wipes its own bytes. A fresh
    // leaf is the caller's alone.
    let privateKey: Uint8Array;
    if (leaf === undefined) privateKey = parent.privateKey.slice();
    else {
      const node = child(parent, leaf);
      node.chainCode.fill(0);
      privateKey = node.privateKey;
    }
    return { curve, path: canonical, privateKey, publicKey: slip10PublicKey(slip10Curve, privateKey) };
  }
}

