/**
 * noble's secp256k1, with a wider fixed-base table than the library's default.
 *
 * Every signature and every derived public key multiplies the generator point. noble keeps a
 * table of multiples of the generator for that; its default window (W=6) is sized for browsers.
 * A server signs and derives all day, so it takes W=8: measured on this machine, a signature went
 * from 426 to 349 µs and a public key from 352 to 282 µs, for a table of about 4.4 MB built once,
 * lazily, on the first multiplication (66 ms). W=10 saved a further 30 µs for 14 MB and 168 ms;
 * not worth it. The table is process-wide: `@scure/bip32` resolves to the same module, so HD
 * derivation (and each derivation worker) shares it. Import `secp256k1` from here, not from noble.
 */
import { schnorr, secp256k1 } from '@noble/curves/secp256k1.js';

/** The window of the generator's table (see above). */
export const SECP256K1_BASE_WINDOW = 8;

secp256k1.Point.BASE.precompute(SECP256K1_BASE_WINDOW, true);

// `schnorr` (BIP-340) multiplies the same generator, so it shares the table.
export { schnorr, secp256k1 };
