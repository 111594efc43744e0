/**
 * secp256k1 for the whole library: noble's curve with a wider generator table, and ECDSA signing
 * on bitcoin-core's libsecp256k1.
 *
 * The generator table. Every derived public key multiplies the generator point; noble keeps a
 * table of its multiples, with a default window (W=6) sized for browsers. A server derives all
 * day, so it takes W=8: measured on this machine, a public key went from 352 to 282 µs, for a
 * table of about 4.4 MB built once, lazily, on the first multiplication (66 ms). W=10 saved a
 * further 30 µs for 14 MB and 168 ms; not worth it. The table is process-wide: `@scure/bip32` and
 * `schnorr` resolve to the same module, so HD derivation (and each derivation worker) shares it.
 *
 * Signing. `signSecp256k1Digest` runs libsecp256k1 (bitcoin-core's reference implementation,
 * constant-time) compiled to WebAssembly by `tiny-secp256k1` (maintained by bitcoinjs): 106 µs a
 * signature against noble's 351 µs with the W=8 table, on the hot path of every `sign_raw_payload`
 * and Ethereum transaction. Both follow RFC 6979 without extra entropy and normalise to low S, so
 * they give the same bytes; the spec checks that against noble on random keys. The library zeroes
 * its input buffers (key, digest) after each call, which noble's bigints cannot offer.
 *
 * Import `secp256k1` from here, not from noble, so the table is set before the first use.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { signRecoverable } from 'tiny-secp256k1';

/** The window of the generator's table (see above). */
export const SECP256K1_BASE_WINDOW = 8;

secp256k1.Point.BASE.precompute(SECP256K1_BASE_WINDOW, true);

/** An ECDSA signature: 32-byte `r` and `s` (low S), and the recovery id of the nonce point. */
export interface TSecp256k1Signature {
  r: Uint8Array;
  s: Uint8Array;
  /** 0 or 1 (2 and 3 need an r above the curve order less p: about 2^-128, never seen). */
  recovery: number;
}

/**
 * ECDSA over a 32-byte digest (not hashed again): RFC 6979 deterministic nonce, low S.
 * @throws {Error} if `digest` is not 32 bytes or `privateKey` is not a valid secp256k1 scalar
 *   (32 bytes, non-zero, below the curve order).
 */
export function signSecp256k1Digest(digest: Uint8Array, privateKey: Uint8Array): TSecp256k1Signature {
  const { signature, recoveryId } = signRecoverable(digest, privateKey);
  return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recoveryId };
}

// `schnorr` (BIP-340) multiplies the same generator, so it shares the table.
export { schnorr, secp256k1 };
