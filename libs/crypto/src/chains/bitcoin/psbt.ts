/**
 * `sign_transaction` for `TRANSACTION_TYPE_BITCOIN`: signs the inputs of a PSBT (BIP-174 v0 or
 * BIP-370 v2) that belong to our secp256k1 key, and returns the PSBT signed but not finalized,
 * so other signers can still add theirs and the caller finalizes.
 *
 * An input is ours when the output it spends pays one of the scripts our addresses use
 * (`../addresses/bitcoin.ts`: P2PKH, P2WPKH, P2SH-P2WPKH, single-key P2WSH, BIP-86 P2TR), or when the PSBT's
 * updater says so: our key in `bip32Derivation` / `tapBip32Derivation`, or as `tapInternalKey`.
 * Every such input must then sign; an input that claims our key but cannot be signed by it is an
 * error, not a silent skip (unlike `@scure/btc-signer`'s `Transaction.sign`), and a PSBT with no
 * input of ours is refused.
 *
 * Where a spend of our own script lacks the data only an updater adds (the P2SH-P2WPKH
 * `redeemScript`, the P2WSH `witnessScript`, the P2TR `tapInternalKey`), we add it: each is
 * determined by our key.
 * The sighash type is the one the PSBT input declares (SIGHASH_DEFAULT/ALL when absent): the
 * creator chose it, as marketplaces do with SINGLE|ANYONECANPAY. Legacy (P2PKH) inputs need the
 * full previous transaction (`nonWitnessUtxo`), since their signature does not commit to the amount.
 */
import { secp256k1 } from '../../keys/secp256k1.js';
import { Transaction, p2pk, p2pkh, p2sh, p2tr, p2wpkh, p2wsh } from '@scure/btc-signer';
import { assertBytes, assertString, decodeBase64Any, encodeHex } from '../../encoding.js';
import { decodeHexInput } from '../../signing/hex-input.js';
import { SigningError } from '../../signing/signing-error.js';

const PSBT_MAGIC_HEX = '70736274ff';
const PSBT_MAGIC_BASE64 = 'cHNidP8';

function malformed(message: string): SigningError {
  return new SigningError('MALFORMED_INPUT', `invalid PSBT: ${message}`);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/** PSBT bytes from hex (`0x` optional) or base64, told apart by the encoded `psbt\xff` magic. */
function decodePsbt(text: string): Uint8Array {
  const trimmed = text.trim();
  if (trimmed.replace(/^0x/i, '').toLowerCase().startsWith(PSBT_MAGIC_HEX)) return decodeHexInput(trimmed, 'unsignedTransaction');
  if (trimmed.startsWith(PSBT_MAGIC_BASE64)) {
    const bytes = decodeBase64Any(trimmed);
    if (!bytes) throw malformed('unsignedTransaction is not valid base64');
    return bytes;
  }
  throw malformed("unsignedTransaction must be a PSBT in hex or base64 (starting with the 'psbt\\xff' magic)");
}

/** The scripts our key's single-key addresses pay to. */
function ownScripts(publicKey: Uint8Array) {
  const wpkh = p2wpkh(publicKey);
  const shWpkh = p2sh(wpkh);
  return {
    p2pkh: p2pkh(publicKey).script,
    p2wpkh: wpkh.script,
    p2shP2wpkh: shWpkh.script,
    p2shRedeemScript: wpkh.script,
    // `<33-byte pubkey> OP_CHECKSIG`, the witness script of our P2WSH address format.
    p2wsh: p2wsh(p2pk(publicKey)).script,
    p2wshWitnessScript: p2pk(publicKey).script,
    // BIP-86: the internal key tweaked with an empty script tree.
    p2tr: p2tr(publicKey.subarray(1)).script,
  };
}

/**
 * Signs every input of `psbt` (hex or base64) that belongs to the secp256k1 `privateKey`, and
 * returns the updated PSBT as lowercase hex without `0x`.
 * @throws {SigningError} `MALFORMED_INPUT` for bytes that are not a PSBT, or an input of ours that
 *   cannot be signed (say, a P2PKH spend without its previous transaction); `NOT_A_SIGNER` if no
 *   unfinalized input belongs to the key.
 * @throws {TypeError} if `privateKey` is not 32 bytes.
 */
export function signBitcoinPsbt(privateKey: Uint8Array, psbt: string): string {
  assertBytes(privateKey, 'privateKey', 32);
  assertString(psbt, 'unsignedTransaction');
  const bytes = decodePsbt(psbt);
  let tx: Transaction;
  try {
    // Unknown outputs (OP_RETURN, future witness versions) are the creator's business; unknown and
    // proprietary records are kept so the PSBT goes back with everything it came with.
    tx = Transaction.fromPSBT(bytes, { allowUnknownOutputs: true, unknown: 'ignore' });
  } catch (error) {
    throw malformed(errorMessage(error));
  }

  const publicKey = secp256k1.getPublicKey(privateKey, true);
  const xOnly = publicKey.subarray(1);
  const scripts = ownScripts(publicKey);
  let signed = 0;
  for (let i = 0; i < tx.inputsLength; i++) {
    const input = tx.getInput(i);
    if (input.finalScriptSig?.length || input.finalScriptWitness?.length) continue;
    let prevScript: Uint8Array | undefined;
    if (input.witnessUtxo) prevScript = input.witnessUtxo.script;
    else if (input.nonWitnessUtxo && input.index !== undefined) prevScript = input.nonWitnessUtxo.outputs[input.index]?.script;

    let ours = false;
    if (prevScript !== undefined) {
      if (sameBytes(prevScript, scripts.p2pkh) || sameBytes(prevScript, scripts.p2wpkh)) ours = true;
      else if (sameBytes(prevScript, scripts.p2shP2wpkh)) {
        ours = true;
        if (!input.redeemScript) tx.updateInput(i, { redeemScript: scripts.p2shRedeemScript });
      } else if (sameBytes(prevScript, scripts.p2wsh)) {
        ours = true;
        if (!input.witnessScript) tx.updateInput(i, { witnessScript: scripts.p2wshWitnessScript });
      } else if (sameBytes(prevScript, scripts.p2tr)) {
        ours = true;
        if (!input.tapInternalKey) tx.updateInput(i, { tapInternalKey: xOnly });
      }
    }
    ours ||=
      (input.bip32Derivation ?? []).some(([key]) => sameBytes(key, publicKey)) ||
      (input.tapBip32Derivation ?? []).some(([key]) => sameBytes(key, xOnly)) ||
      sameBytes(input.tapInternalKey, xOnly);
    if (!ours) continue;

    try {
      const allowed = input.sighashType === undefined ? undefined : [input.sighashType];
      tx.signIdx(privateKey, i, allowed);
    } catch (error) {
      throw malformed(`input ${i} belongs to this key but cannot be signed: ${errorMessage(error)}`);
    }
    signed++;
  }
  if (signed === 0) {
    throw new SigningError(
      'NOT_A_SIGNER',
      'no unfinalized input of this PSBT spends from this key (P2PKH, P2WPKH, P2SH-P2WPKH, P2WSH or BIP-86 P2TR) or names it in bip32Derivation, tapBip32Derivation or tapInternalKey',
    );
  }
  return encodeHex(tx.toPSBT());
}
