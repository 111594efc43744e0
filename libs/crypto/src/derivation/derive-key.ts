/**
 * HD derivation from a wallet's mnemonic: secp256k1 follows BIP32; ed25519 and P-256 follow
 * SLIP-0010 (`./slip10.ts`). Parent nodes are cached per seed and per curve while one batch of
 * accounts is derived, since deriving the full path from the root costs ~5× a single child step.
 *
 * The secp256k1 steps are computed here (`bip32Child`, `bip32Leaf`) on private keys alone: a node's
 * public key — a point multiplication, most of a step's cost in JavaScript — is computed only when
 * a non-hardened child needs it (`bip32PublicKey`), and the leaf's one multiplication yields both
 * SEC1 forms. `@scure/bip32`'s `HDKey` computes every node's public key as it makes the node (6
 * multiplications for m/44'/60'/0'/0/0 against 3 here); it stays the reference: the rare cases
 * BIP32 declares invalid are handed to it, and derive-key.spec.ts checks vectors and random paths
 * against it.
 */
import { secp256k1 } from '../keys/secp256k1.js';
import { bytesToNumberBE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { HDKey } from '@scure/bip32';
import { pbkdf2, pbkdf2Sync } from 'node:crypto';
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
  return ownSeed(pbkdf2Sync(...bip39Stretch(mnemonic)));
}

/** `mnemonicToSeed` on libuv's thread pool (`crypto.pbkdf2`): the same bytes, off the event loop. */
export function mnemonicToSeedAsync(mnemonic: string): Promise<Uint8Array> {
  return new Promise((resolve, reject) => pbkdf2(...bip39Stretch(mnemonic), (e, stretched) => (e ? reject(e) : resolve(ownSeed(stretched)))));
}

/** BIP39's PBKDF2 arguments for a mnemonic without passphrase. */
const bip39Stretch = (mnemonic: string) => [Buffer.from(mnemonic.normalize('NFKD'), 'utf8'), Buffer.from('mnemonic', 'utf8'), 2048, 64, 'sha512'] as const;

/** A copy of our own (never a view into Node's buffer pool); the intermediate is wiped. */
function ownSeed(stretched: Buffer): Uint8Array {
  const seed = new Uint8Array(stretched);
  stretched.fill(0);
  return seed;
}

export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;

/** @throws DerivationError for a mnemonic length BIP39 does not define, naming the ones it does */
export function assertMnemonicLength(words: number): void {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(words)) throw new DerivationError(`mnemonic length must be one of ${MNEMONIC_LENGTHS.join(', ')}`);
}

/** A fresh BIP39 English mnemonic of 12–24 words. */
export function createMnemonic(words: number = 12): string {
  assertMnemonicLength(words);
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

/**
 * A BIP32 node on private data: the key, the chain code, its depth, and its compressed public key
 * once something needed it. Cached nodes are shared: their arrays are never handed out or wiped.
 */
interface TBip32Node {
  privateKey: Uint8Array;
  chainCode: Uint8Array;
  depth: number;
  publicKey?: Uint8Array;
}

/** BIP32's depth limit (one byte in the serialised key), as HDKey enforces it. */
const BIP32_MAX_DEPTH = 0xff;
const BIP32_MASTER_SECRET = new TextEncoder().encode('Bitcoin seed');

/** serP(point(k)) of a node, computed on first use and kept on the node. */
function bip32PublicKey(node: TBip32Node): Uint8Array {
  return (node.publicKey ??= secp256k1.getPublicKey(node.privateKey, true));
}

const fromHdKey = (hd: HDKey, canonical: string): TBip32Node => {
  const { privateKey, chainCode, publicKey } = hd;
  if (!privateKey || !chainCode || !publicKey) throw new DerivationError(`derivation failed for ${canonical}`);
  return { privateKey, chainCode, depth: hd.depth, publicKey };
};

/** The master node of a BIP32 seed; a seed HDKey refuses (length, key out of range) is refused by it. */
function bip32Master(seed: Uint8Array): TBip32Node {
  if (seed.length < 16 || seed.length > 64) return fromHdKey(HDKey.fromMasterSeed(seed), 'm');
  const I = hmac(sha512, BIP32_MASTER_SECRET, seed);
  try {
    const k = bytesToNumberBE(I.subarray(0, 32));
    if (k === 0n || k >= Secp256k1Fn.ORDER) return fromHdKey(HDKey.fromMasterSeed(seed), 'm');
    return { privateKey: I.slice(0, 32), chainCode: I.slice(32), depth: 0 };
  } finally {
    I.fill(0);
  }
}

/**
 * BIP32 CKDpriv: I = HMAC-SHA512(c_par, data), k = parse256(I_L) + k_par mod n, c = I_R; data is
 * 0x00 ‖ ser256(k_par) ‖ ser32(i) for a hardened index, serP(K_par) ‖ ser32(i) otherwise. In the
 * cases BIP32 declares invalid (I_L ≥ n or k = 0, probability ~2^-127) and past the depth limit,
 * HDKey decides (its rule: move on to the next index; or its error), so it stays the one source of
 * truth for them. `bip32Leaf` is the same step for the last index, with the child's public key.
 */
function bip32Step(parent: TBip32Node, index: number): { k: bigint; I: Uint8Array } | undefined {
  if (parent.depth + 1 > BIP32_MAX_DEPTH) return undefined;
  const data = new Uint8Array(37);
  if (index >= HARDENED_OFFSET) data.set(parent.privateKey, 1);
  else data.set(bip32PublicKey(parent), 0);
  new DataView(data.buffer).setUint32(33, index, false);
  const I = hmac(sha512, parent.chainCode, data);
  data.fill(0);
  const tweak = bytesToNumberBE(I.subarray(0, 32));
  const k = Secp256k1Fn.create(tweak + bytesToNumberBE(parent.privateKey));
  if (tweak >= Secp256k1Fn.ORDER || k === 0n) {
    I.fill(0);
    return undefined;
  }
  return { k, I };
}

/**
 * The parent as HDKey, for the cases it decides (see `bip32Step`). Its index and parent fingerprint
 * only name it in a serialised key, which nothing here makes: any values HDKey accepts will do.
 */
const asHdKey = (node: TBip32Node): HDKey => new HDKey({ privateKey: node.privateKey, chainCode: node.chainCode, depth: node.depth, index: node.depth === 0 ? 0 : 1, parentFingerprint: node.depth === 0 ? 0 : 1 });

function bip32Child(parent: TBip32Node, index: number, canonical: string): TBip32Node {
  const step = bip32Step(parent, index);
  if (!step) return fromHdKey(asHdKey(parent).deriveChild(index), canonical);
  try {
    return { privateKey: Secp256k1Fn.toBytes(step.k), chainCode: step.I.slice(32), depth: parent.depth + 1 };
  } finally {
    step.I.fill(0);
  }
}

/** The key pair of a secp256k1 HD node (fresh copies), with both SEC1 forms of its public key. */
function secp256k1KeyOfNode(node: TBip32Node): Omit<TDerivedKey, 'curve' | 'path'> {
  const publicKey = bip32PublicKey(node).slice();
  return { privateKey: node.privateKey.slice(), publicKey, uncompressedPublicKey: secp256k1.Point.fromBytes(publicKey).toBytes(false) };
}

/**
 * The last step of a path: `bip32Child`'s arithmetic, with the child's one point multiplication
 * giving both SEC1 forms (HDKey keeps only the compressed one, which the Ethereum encoder would
 * have to decompress again). Byte-identical to `HDKey.deriveChild`.
 */
function bip32Leaf(parent: TBip32Node, index: number, canonical: string): Omit<TDerivedKey, 'curve' | 'path'> {
  const step = bip32Step(parent, index);
  if (!step) return secp256k1KeyOfNode(fromHdKey(asHdKey(parent).deriveChild(index), canonical));
  step.I.fill(0);
  const point = secp256k1.Point.BASE.multiply(step.k);
  return { privateKey: Secp256k1Fn.toBytes(step.k), publicKey: point.toBytes(true), uncompressedPublicKey: point.toBytes(false) };
}

/** Derives keys of one seed, caching intermediate nodes between calls. */
export class SeedDeriver {
  private readonly root: TBip32Node;
  private readonly cache = new Map<string, TBip32Node>();
  private readonly slip10Roots: Record<TSlip10Curve, TSlip10Node>;
  private readonly slip10Caches: Record<TSlip10Curve, Map<string, TSlip10Node>> = { ed25519: new Map(), nist256p1: new Map() };

  private constructor(seed: Uint8Array) {
    this.root = bip32Master(seed);
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
        const parent = parentOf(this.root, indexes, this.cache, (node, idx) => bip32Child(node, idx, canonical));
        const leaf = indexes.at(-1);
        const key = leaf === undefined ? secp256k1KeyOfNode(parent) : bip32Leaf(parent, leaf, canonical);
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

