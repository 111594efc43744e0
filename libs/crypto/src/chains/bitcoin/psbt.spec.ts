/**
 * PSBTs built with bitcoinjs-lib spending outputs of our key (P2WPKH, P2TR, P2PKH, P2SH-P2WPKH,
 * P2WSH), signed here, then validated, finalized and extracted by bitcoinjs-lib.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as ecc from '@bitcoinerlab/secp256k1';
import { Psbt, Transaction, initEccLib, payments } from 'bitcoinjs-lib';
import { describe, expect, it } from 'vitest';
import { signBitcoinPsbt } from './psbt.js';
import { SigningError } from '../../signing/signing-error.js';
import { reasonOf } from '../../test-vectors.js';

initEccLib(ecc);

const PRIVATE_KEY = new Uint8Array(32).fill(0x21);
const PUBLIC_KEY = secp256k1.getPublicKey(PRIVATE_KEY, true);
const X_ONLY = PUBLIC_KEY.subarray(1);
const OTHER_PUBLIC_KEY = secp256k1.getPublicKey(new Uint8Array(32).fill(0x22), true);

const ours = {
  p2wpkh: payments.p2wpkh({ pubkey: PUBLIC_KEY }),
  p2tr: payments.p2tr({ internalPubkey: X_ONLY }),
  p2pkh: payments.p2pkh({ pubkey: PUBLIC_KEY }),
  p2shP2wpkh: payments.p2sh({ redeem: payments.p2wpkh({ pubkey: PUBLIC_KEY }) }),
  p2wsh: payments.p2wsh({ redeem: payments.p2pk({ pubkey: PUBLIC_KEY }) }),
};
const theirs = payments.p2wpkh({ pubkey: OTHER_PUBLIC_KEY });
const payee = payments.p2wpkh({ pubkey: OTHER_PUBLIC_KEY }).output!;

/** Checks ECDSA and (x-only key) Schnorr signatures with bitcoinjs' own secp256k1 backend. */
const validator = (pubkey: Uint8Array, hash: Uint8Array, signature: Uint8Array) =>
  pubkey.length === 32 ? ecc.verifySchnorr(hash, pubkey, signature) : ecc.verify(hash, pubkey, signature);

/** A previous transaction paying `script`, for inputs that need the full `nonWitnessUtxo`. */
function previousTransaction(script: Uint8Array, value: bigint, seed: number): Transaction {
  const tx = new Transaction();
  tx.version = 2;
  tx.addInput(new Uint8Array(32).fill(seed), 0);
  tx.addOutput(script, value);
  return tx;
}

function witnessInput(script: Uint8Array, value: bigint, seed: number) {
  return { hash: new Uint8Array(32).fill(seed), index: 0, witnessUtxo: { script, value } };
}


describe('signBitcoinPsbt', () => {
  it('signs a P2WPKH and a P2TR (BIP-86) input of our key; bitcoinjs validates, finalizes and extracts', () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(ours.p2wpkh.output!, 50_000n, 1));
    psbt.addInput({ ...witnessInput(ours.p2tr.output!, 70_000n, 2), tapInternalKey: X_ONLY });
    psbt.addOutput({ script: payee, value: 110_000n });

    const signedHex = signBitcoinPsbt(PRIVATE_KEY, psbt.toHex());
    expect(signedHex).toMatch(/^70736274ff[0-9a-f]+$/);
    const signed = Psbt.fromHex(signedHex);
    // Signed, not finalized: the caller (or a co-signer) finalizes.
    expect(signed.data.inputs.every((input) => input.finalScriptWitness === undefined)).toBe(true);
    expect(signed.data.inputs[0]!.partialSig).toHaveLength(1);
    expect(signed.data.inputs[1]!.tapKeySig).toHaveLength(64);
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
    signed.finalizeAllInputs();
    const tx = signed.extractTransaction();
    expect(tx.ins).toHaveLength(2);
    expect(tx.outs[0]!.value).toBe(110_000n);
  });

  it('accepts base64 as well as hex (with or without 0x) and signs the same', () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(ours.p2wpkh.output!, 50_000n, 3));
    psbt.addOutput({ script: payee, value: 40_000n });
    const fromHex = signBitcoinPsbt(PRIVATE_KEY, psbt.toHex());
    expect(signBitcoinPsbt(PRIVATE_KEY, psbt.toBase64())).toBe(fromHex);
    expect(signBitcoinPsbt(PRIVATE_KEY, `0x${psbt.toHex()}`)).toBe(fromHex);
  });

  it('signs P2PKH (with its previous transaction), P2SH-P2WPKH and P2WSH inputs, adding the scripts our key determines', () => {
    const prev = previousTransaction(ours.p2pkh.output!, 30_000n, 4);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getHash(), index: 0, nonWitnessUtxo: prev.toBuffer() });
    // No redeemScript / witnessScript: the signer adds them, as they follow from our key.
    psbt.addInput(witnessInput(ours.p2shP2wpkh.output!, 20_000n, 5));
    psbt.addInput(witnessInput(ours.p2wsh.output!, 25_000n, 6));
    psbt.addOutput({ script: payee, value: 70_000n });

    const signed = Psbt.fromHex(signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()));
    expect(signed.data.inputs[1]!.redeemScript).toEqual(ours.p2shP2wpkh.redeem!.output);
    expect(signed.data.inputs[2]!.witnessScript).toEqual(ours.p2wsh.redeem!.output);
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
    signed.finalizeAllInputs();
    expect(signed.extractTransaction().ins).toHaveLength(3);
  });

  it('adds the tapInternalKey of a BIP-86 output when the PSBT lacks it', () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(ours.p2tr.output!, 10_000n, 7));
    psbt.addOutput({ script: payee, value: 9_000n });
    const signed = Psbt.fromHex(signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()));
    expect(signed.data.inputs[0]!.tapInternalKey).toEqual(X_ONLY);
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
  });

  it("signs only our inputs and leaves a co-signer's input untouched", () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(theirs.output!, 50_000n, 8));
    psbt.addInput(witnessInput(ours.p2wpkh.output!, 50_000n, 9));
    psbt.addOutput({ script: payee, value: 90_000n });
    const signed = Psbt.fromHex(signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()));
    expect(signed.data.inputs[0]!.partialSig).toBeUndefined();
    expect(signed.validateSignaturesOfInput(1, validator)).toBe(true);
  });

  it('signs with the sighash type the input declares (SINGLE|ANYONECANPAY, as marketplaces use)', () => {
    const psbt = new Psbt();
    const sighashType = Transaction.SIGHASH_SINGLE | Transaction.SIGHASH_ANYONECANPAY;
    psbt.addInput({ ...witnessInput(ours.p2wpkh.output!, 50_000n, 10), sighashType });
    psbt.addOutput({ script: payee, value: 49_000n });
    const signed = Psbt.fromHex(signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()));
    const signature = signed.data.inputs[0]!.partialSig![0]!.signature;
    expect(signature[signature.length - 1]).toBe(sighashType);
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
  });
});

describe('signBitcoinPsbt refusals', () => {
  it('refuses a PSBT with no input of ours', () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(theirs.output!, 50_000n, 11));
    psbt.addOutput({ script: payee, value: 40_000n });
    expect(reasonOf(() => signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()))).toBe('NOT_A_SIGNER');
  });

  it('refuses input that is not a PSBT', () => {
    for (const input of ['', 'deadbeef', '70736274ff', '70736274ffzz', 'cHNidP8!!!!', 'cHNidP8BAAA=']) {
      expect(reasonOf(() => signBitcoinPsbt(PRIVATE_KEY, input))).toBe('MALFORMED_INPUT');
    }
  });

  it('refuses a P2PKH input of ours without its previous transaction (the amount would not be signed)', () => {
    const psbt = new Psbt();
    psbt.addInput(witnessInput(ours.p2pkh.output!, 50_000n, 12));
    psbt.addOutput({ script: payee, value: 40_000n });
    expect(reasonOf(() => signBitcoinPsbt(PRIVATE_KEY, psbt.toHex()))).toBe('MALFORMED_INPUT');
  });

  it('refuses an input whose bip32Derivation names our key though its script is not ours', () => {
    const psbt = new Psbt();
    psbt.addInput({
      ...witnessInput(theirs.output!, 50_000n, 13),
      bip32Derivation: [{ masterFingerprint: new Uint8Array(4), path: "m/84'/0'/0'/0/0", pubkey: PUBLIC_KEY }],
    });
    psbt.addOutput({ script: payee, value: 40_000n });
    expect(() => signBitcoinPsbt(PRIVATE_KEY, psbt.toHex())).toThrow(/input 0 belongs to this key but cannot be signed/);
  });
});
