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
 * constant-time), natively where it can: the `secp256k1` package's N-API binding, whose prebuilt
 * binaries cover Linux x64 (glibc and musl), macOS arm64 and Windows x64, so `npm ci` compiles
 * nothing. Elsewhere, or if the binary does not load, the same library compiled to WebAssembly by
 * `tiny-secp256k1` (maintained by bitcoinjs). Measured on a 2-core machine on 2026-11-28: native
 * 79 µs a signature, WebAssembly 291 µs, noble (W=8 table) 1,015 µs — on the hot path of every
 * `sign_raw_payload` and Ethereum transaction. All three follow RFC 6979 without extra entropy
 * and normalise to low S, so they give the same bytes; the spec checks that against noble on
 * random keys. Neither libsecp256k1 build keeps a copy of the key: the native one reads the
 * caller's buffer in place (the caller wipes it), the WebAssembly one zeroes its input buffers
 * after each call — which noble's bigints cannot offer.
 *
 * Import `secp256k1` from here, not from noble, so the table is set before the first use.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';
import { createRequire } from 'node:module';
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
  return signDigest(digest, privateKey);
}

type TDigestSigner = (digest: Uint8Array, privateKey: Uint8Array) => TSecp256k1Signature;

/** The `secp256k1` package's native binding (`ecdsaSign` validates its inputs and throws on a bad key), if it loads here. */
function loadNativeSigner(): TDigestSigner | undefined {
  try {
    // Required, not imported: a platform without a prebuilt binary throws here, and the WebAssembly build signs instead.
    const native = createRequire(import.meta.url)('secp256k1/bindings') as { ecdsaSign(msg32: Uint8Array, seckey: Uint8Array): { signature: Uint8Array; recid: number } };
    return (digest, privateKey) => {
      const { signature, recid } = native.ecdsaSign(digest, privateKey);
      return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recid };
    };
  } catch {
    return undefined;
  }
}

const nativeSigner = loadNativeSigner();

/** Both builds of libsecp256k1 this machine can run (the spec compares them). */
export const SECP256K1_SIGNERS: { native?: TDigestSigner; wasm: TDigestSigner } = {
  ...(nativeSigner ? { native: nativeSigner } : {}),
  wasm: (digest, privateKey) => {
    const { signature, recoveryId } = signRecoverable(digest, privateKey);
    return { r: signature.slice(0, 32), s: signature.slice(32, 64), recovery: recoveryId };
  },
};

/** Which build `signSecp256k1Digest` uses: the native one when it loaded. */
export const SECP256K1_SIGNER: 'native' | 'wasm' = nativeSigner ? 'native' : 'wasm';
const signDigest: TDigestSigner = nativeSigner ?? SECP256K1_SIGNERS.wasm;

// `schnorr` (BIP-340) multiplies the same generator, so it shares the table.
export { schnorr, secp256k1 };
