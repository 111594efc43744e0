/**
 * `sign_transaction` for `TRANSACTION_TYPE_SOLANA`: fills our signature slot of a serialized legacy
 * or v0 transaction (or bare message), read by `message.ts`, the reader the policy reader uses too.
 *
 * The signers are the first `numRequiredSignatures` static account keys, in slot order; we sign the
 * message bytes exactly as received and leave other signers' slots as they are. A bare message comes
 * back as the full transaction, with zeros in the other signers' slots.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { assertBytes, assertString, encodeHex } from '../../encoding.js';
import { SigningError } from '../../signing/signing-error.js';
import { encodeShortvec, parseSolanaTransactionHex } from './message.js';

/**
 * Signs a serialized Solana transaction (hex, `0x` optional) with an ed25519 key and returns the
 * transaction with our slot filled, as lowercase hex without `0x`.
 * @throws {SigningError} `NOT_A_SIGNER` if `publicKey` is not one of the transaction's required
 *   signers; `MALFORMED_INPUT` for bytes that are not a legacy/v0 transaction or message, or that
 *   read as both; `UNSUPPORTED` for another message version.
 * @throws {TypeError} if the keys are not 32 bytes or `publicKey` is not `privateKey`'s.
 */
export function signSolanaTransaction(privateKey: Uint8Array, publicKey: Uint8Array, unsignedHex: string): string {
  assertBytes(privateKey, 'privateKey', 32);
  assertBytes(publicKey, 'publicKey', 32);
  assertString(unsignedHex, 'unsignedTransaction');
  // A mismatched pair would put a signature by one key into another key's slot.
  if (encodeHex(ed25519.getPublicKey(privateKey)) !== encodeHex(publicKey)) throw new TypeError('publicKey is not the public key of privateKey');
  const tx = parseSolanaTransactionHex(unsignedHex);

  const { header, staticAccountKeys } = tx.message;
  const ours = encodeHex(publicKey);
  const slot = staticAccountKeys.slice(0, header.numRequiredSignatures).findIndex((key) => encodeHex(key) === ours);
  if (slot === -1) {
    throw new SigningError('NOT_A_SIGNER', `this key is not one of the transaction's ${header.numRequiredSignatures} required signer(s)`);
  }
  const signature = ed25519.sign(tx.messageBytes, privateKey);
  const signatures = tx.signatures.map((s, i) => (i === slot ? signature : s));
  return encodeHex(Buffer.concat([encodeShortvec(signatures.length), ...signatures, tx.messageBytes]));
}
