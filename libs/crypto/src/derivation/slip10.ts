/**
 * SLIP-0010: BIP32-style HD derivation for the curves BIP32 does not cover, here ed25519 and
 * NIST P-256 (https://github.com/satoshilabs/slips/blob/master/slip-0010.md). Only the private
 * derivation (CKDpriv) is implemented: the server always holds the seed, and extended public keys
 * are never handed out.
 *
 * Written here rather than taken from a package because it is two HMACs and a modular addition,
 * and the retry rules (which differ from BIP32) are exactly what a dependency would hide.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { p256 } from '@noble/curves/nist.js';
import { bytesToNumberBE, numberToBytesBE } from '@noble/curves/utils.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha512 } from '@noble/hashes/sha2.js';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { DerivationError, HARDENED_OFFSET } from './derivation-path.js';
import { assertNever } from '@latchkey/domain';

/** The SLIP-0010 curve names (the spec's, not Turnkey's `CURVE_*`). */
export const SLIP10_CURVES = ['ed25519', 'nist256p1'] as const;
export type TSlip10Curve = (typeof SLIP10_CURVES)[number];

/** An extended private key. Both fields are secret: the chain code lets anyone derive children. */
export interface TSlip10Node {
  /** 32 bytes: the ed25519 seed (RFC 8032 "private key") or the P-256 scalar, big-endian. */
  readonly privateKey: Uint8Array;
  /** 32 bytes. */
  readonly chainCode: Uint8Array;
}

// Distinct HMAC keys per curve, so one BIP39 seed never yields the same secret on two curves.
const MASTER_HMAC_KEY: Record<TSlip10Curve, Uint8Array> = {
  ed25519: utf8ToBytes('ed25519 seed'),
  nist256p1: utf8ToBytes('Nist256p1 seed'),
};

const P256_ORDER = p256.Point.Fn.ORDER;
const MAX_INDEX = 0xffff_ffff;

// --- Input assertions: these functions are a security boundary, so they refuse rather than coerce.

function aCurve(curve: unknown): asserts curve is TSlip10Curve {
  if (!(SLIP10_CURVES as readonly unknown[]).includes(curve)) {
    throw new DerivationError(`curve must be one of ${SLIP10_CURVES.join(', ')}; got ${JSON.stringify(String(curve))}`);
  }
}

function aBytes(title: string, value: unknown, min: number, max: number = min): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) throw new DerivationError(`${title} must be a Uint8Array`);
  if (value.length < min || value.length > max) {
    const want = min === max ? `${min}` : `${min}–${max}`;
    throw new DerivationError(`${title} must be ${want} bytes; got ${value.length}`);
  }
}

function aIndex(index: unknown): asserts index is number {
  if (typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0 || index > MAX_INDEX) {
    throw new DerivationError(`index must be an integer in [0, 2^32-1]; got ${String(index)}`);
  }
}

function aNode(curve: TSlip10Curve, node: unknown): asserts node is TSlip10Node {
  if (typeof node !== 'object' || node === null) throw new DerivationError('parent must be a SLIP-0010 node');
  const { privateKey, chainCode } = node as Partial<TSlip10Node>;
  aBytes('parent.privateKey', privateKey, 32);
  aBytes('parent.chainCode', chainCode, 32);
  // A P-256 parent outside [1, n) cannot come from this module; refusing it keeps the
  // modular arithmetic below meaningful.
  if (curve === 'nist256p1' && !isP256Scalar(privateKey)) throw new DerivationError('parent.privateKey is not a valid P-256 scalar');
}

function isP256Scalar(bytes: Uint8Array): boolean {
  const k = bytesToNumberBE(bytes);
  return k > 0n && k < P256_ORDER;
}

function ser32(index: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, index, false);
  return out;
}

/** Splits I into (I_L, I_R) as a node, then zeroes I: it holds the secret until garbage collection otherwise. */
function splitIntoNode(I: Uint8Array): TSlip10Node {
  const node = { privateKey: I.slice(0, 32), chainCode: I.slice(32, 64) };
  I.fill(0);
  return node;
}

/**
 * The master node of `seed` on `curve` (SLIP-0010 "Master key generation").
 * @throws DerivationError for an unknown curve or a seed outside 16–64 bytes (BIP32's 128–512 bits).
 */
export function slip10MasterNode(curve: TSlip10Curve, seed: Uint8Array): TSlip10Node {
  aCurve(curve);
  aBytes('seed', seed, 16, 64);
  const key = MASTER_HMAC_KEY[curve];
  let I = hmac(sha512, key, seed);
  // ed25519 takes any 32 bytes as a secret (it is hashed before use), so only P-256 can hit an
  // invalid scalar. BIP32 would give up here; SLIP-0010 re-hashes I instead (I := HMAC(key, I)),
  // so every seed has a master key. Probability ~2^-32, exercised by the spec's "seed retry" vector.
  while (curve === 'nist256p1' && !isP256Scalar(I.subarray(0, 32))) {
    const next = hmac(sha512, key, I);
    I.fill(0);
    I = next;
  }
  return splitIntoNode(I);
}

/**
 * CKDpriv: the child `index` of `parent` (indexes ≥ 2^31 are hardened).
 * @throws DerivationError for a malformed parent or index, or a non-hardened index on ed25519
 *   (SLIP-0010 defines no normal derivation there: the ed25519 secret is hashed before it becomes
 *   a scalar, so there is no additive relation between parent and child public keys to exploit).
 */
export function slip10DeriveChild(curve: TSlip10Curve, parent: TSlip10Node, index: number): TSlip10Node {
  aCurve(curve);
  aNode(curve, parent);
  aIndex(index);
  const hardened = index >= HARDENED_OFFSET;
  if (!hardened && curve === 'ed25519') {
    throw new DerivationError(`ed25519 supports only hardened derivation (SLIP-0010); index ${index} is not hardened`);
  }

  // Hardened: 0x00 || ser256(k_par) || ser32(i), the 0x00 padding to the 33 bytes of a compressed
  // point. Normal: serP(point(k_par)) || ser32(i), which is what lets an xpub holder derive the same
  // child public keys.
  const data = new Uint8Array(37);
  if (hardened) data.set(parent.privateKey, 1);
  else data.set(p256.getPublicKey(parent.privateKey, true), 0);
  data.set(ser32(index), 33);
  let I = hmac(sha512, parent.chainCode, data);
  data.fill(0);

  // ed25519: I_L is the child secret as is; no modular addition, hence no invalid outcome.
  if (curve === 'ed25519') return splitIntoNode(I);

  const parentScalar = bytesToNumberBE(parent.privateKey);
  for (;;) {
    const il = bytesToNumberBE(I.subarray(0, 32));
    const childScalar = (il + parentScalar) % P256_ORDER;
    if (il < P256_ORDER && childScalar !== 0n) {
      const node = { privateKey: numberToBytesBE(childScalar, 32), chainCode: I.slice(32, 64) };
      I.fill(0);
      return node;
    }
    // BIP32 would skip to index i+1, silently changing the path; SLIP-0010 instead re-hashes
    // with 0x01 || I_R || ser32(i) so that every index has exactly one key.
    const retry = new Uint8Array(37);
    retry[0] = 0x01;
    retry.set(I.subarray(32, 64), 1);
    retry.set(ser32(index), 33);
    const next = hmac(sha512, parent.chainCode, retry);
    retry.fill(0);
    I.fill(0);
    I = next;
  }
}

/**
 * The public key of a SLIP-0010 private key: the raw 32-byte RFC 8032 key for ed25519, the
 * 33-byte compressed SEC1 point for P-256.
 * @throws DerivationError for an unknown curve or a private key that is not 32 bytes (or, on
 *   P-256, not in [1, n)).
 */
export function slip10PublicKey(curve: TSlip10Curve, privateKey: Uint8Array): Uint8Array {
  aCurve(curve);
  aBytes('privateKey', privateKey, 32);
  switch (curve) {
    case 'ed25519':
      return ed25519.getPublicKey(privateKey);
    case 'nist256p1':
      if (!isP256Scalar(privateKey)) throw new DerivationError('privateKey is not a valid P-256 scalar');
      return p256.getPublicKey(privateKey, true);
    default:
      return assertNever(curve, (v) => new DerivationError(`unhandled SLIP-0010 curve: ${String(v)}`));
  }
}

