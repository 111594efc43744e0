/**
 * `sign_transaction` for `TRANSACTION_TYPE_ETHEREUM`: signs an unsigned serialized transaction, as
 * ethers' `Transaction.unsignedSerialized` and viem's `serializeTransaction` produce it, and returns
 * the signed serialization.
 *
 * Accepted forms (the table is `layout.ts`, the reader `transaction.ts`, shared with the policy
 * reader `fields.ts` so that policy and signer never read the same bytes two ways):
 * - legacy: `rlp([nonce, gasPrice, gas, to, value, data])` (pre-EIP-155, v = 27/28) or the EIP-155
 *   form `rlp([..., chainId, 0, 0])` (v = chainId·2 + 35/36);
 * - typed (EIP-2718) `type ‖ rlp(fields)`: 0x01 (EIP-2930), 0x02 (EIP-1559), 0x03 (EIP-4844, the
 *   network form without blobs, as `@turnkey/viem` sends it) and 0x04 (EIP-7702); the signed form
 *   appends `yParity, r, s`.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { assertBytes, assertString, encodeHex } from '../../encoding.js';
import { signSecp256k1Digest } from '../../keys/secp256k1.js';
import { SigningError } from '../../signing/signing-error.js';
import { encodeRlp, encodeRlpUint } from './rlp.js';
import { parseEthereumTransactionHex } from './transaction.js';

/** Signs `digest`; the recovery id of a secp256k1 signature is 0 or 1 but for a ~2^-128 chance. */
function sign(digest: Uint8Array, privateKey: Uint8Array): { recovery: 0 | 1; r: Uint8Array; s: Uint8Array } {
  const signature = signSecp256k1Digest(digest, privateKey);
  const recovery = signature.recovery;
  if (recovery !== 0 && recovery !== 1) throw new SigningError('UNSUPPORTED', 'signature has a recovery id Ethereum cannot encode; change the transaction (e.g. its nonce) and retry');
  // r and s are RLP integers: strip their leading zeros.
  const r = encodeRlpUint(BigInt(`0x${encodeHex(signature.r)}`));
  const s = encodeRlpUint(BigInt(`0x${encodeHex(signature.s)}`));
  return { recovery, r, s };
}

/**
 * Signs an unsigned Ethereum transaction (hex, `0x` optional) with a secp256k1 private key and
 * returns the signed serialization as lowercase hex without `0x` (Turnkey's clients prepend it).
 * @throws {SigningError} `MALFORMED_INPUT` for bad hex, non-canonical RLP or a field of the wrong
 *   shape; `UNSUPPORTED` for a transaction type other than legacy and 0x01–0x04.
 * @throws {TypeError} if `privateKey` is not 32 bytes.
 */
export function signEthereumTransaction(privateKey: Uint8Array, unsignedHex: string): string {
  assertBytes(privateKey, 'privateKey', 32);
  assertString(unsignedHex, 'unsignedTransaction');
  const tx = parseEthereumTransactionHex(unsignedHex);
  // The digest is over the bytes received: the reader's RLP is canonical-only, so they are the one
  // encoding of the items the policy reader saw, not a re-encoding that could differ from them.
  const { recovery, r, s } = sign(keccak_256(tx.unsigned), privateKey);
  const { typeByte } = tx.layout;
  if (typeByte === undefined) {
    const head = tx.items.slice(0, tx.layout.fields.length);
    const { chainId } = tx.values;
    const v = chainId === undefined ? 27n + BigInt(recovery) : chainId * 2n + 35n + BigInt(recovery);
    return encodeHex(encodeRlp([...head, encodeRlpUint(v), r, s]));
  }
  const signed = encodeRlp([...tx.items, encodeRlpUint(BigInt(recovery)), r, s]);
  const out = new Uint8Array(signed.length + 1);
  out[0] = typeByte;
  out.set(signed, 1);
  return encodeHex(out);
}
