/**
 * `sign_transaction`: dispatches on Turnkey's `TRANSACTION_TYPE_*` to the one signer for that chain
 * family, after checking that the key's curve is the chain's.
 */
import type { TTransactionType } from '@latchkey/domain';
import type { TCurveName } from '../derivation/derive-key.js';
import { assertBytes, assertString } from '../encoding.js';
import { signBitcoinPsbt } from '../chains/bitcoin/psbt.js';
import { signEthereumTransaction } from '../chains/ethereum/sign.js';
import { SigningError } from './signing-error.js';
import { signSolanaTransaction } from '../chains/solana/sign.js';

export interface TSignTransactionInput {
  type: TTransactionType;
  curve: TCurveName;
  /** 32-byte private key. A secret: the caller owns it and wipes it after the call. */
  privateKey: Uint8Array;
  /** The key's public key in the form derivation produces (33-byte SEC1 or 32-byte ed25519). */
  publicKey: Uint8Array;
  /** As the request carries it: hex for Ethereum and Solana, hex or base64 PSBT for Bitcoin. */
  unsignedTransaction: string;
}

function assertCurve(type: TTransactionType, curve: TCurveName, expected: TCurveName): void {
  if (curve !== expected) throw new SigningError('INVALID_REQUEST', `${type} needs a ${expected} key, not ${curve}`);
}

/**
 * Signs `unsignedTransaction` and returns the signed transaction as lowercase hex without `0x`
 * (`getSignedTransactionFromActivity` in `@turnkey/http` prepends it); for Bitcoin, the signed PSBT.
 * @throws {SigningError} `INVALID_REQUEST` for a key on the wrong curve, `UNSUPPORTED` for TRON and
 *   TEMPO, and whatever the chain's signer throws.
 * @throws {TypeError} for keys that are not byte arrays of the curve's sizes.
 */
export function signTransaction(input: TSignTransactionInput): string {
  const { type, curve, privateKey, publicKey, unsignedTransaction } = input;
  assertBytes(privateKey, 'privateKey', 32);
  assertBytes(publicKey, 'publicKey');
  assertString(unsignedTransaction, 'unsignedTransaction');
  switch (type) {
    case 'TRANSACTION_TYPE_ETHEREUM':
      assertCurve(type, curve, 'CURVE_SECP256K1');
      return signEthereumTransaction(privateKey, unsignedTransaction);
    case 'TRANSACTION_TYPE_SOLANA':
      assertCurve(type, curve, 'CURVE_ED25519');
      return signSolanaTransaction(privateKey, publicKey, unsignedTransaction);
    case 'TRANSACTION_TYPE_BITCOIN':
      assertCurve(type, curve, 'CURVE_SECP256K1');
      return signBitcoinPsbt(privateKey, unsignedTransaction);
    case 'TRANSACTION_TYPE_TRON':
    case 'TRANSACTION_TYPE_TEMPO':
      throw new SigningError('UNSUPPORTED', `${type} is not supported by this server`);
    default: {
      const never: never = type;
      throw new SigningError('INVALID_REQUEST', `unknown transaction type ${String(never)}`);
    }
  }
}
