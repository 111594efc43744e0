/** signTransaction: dispatch per TRANSACTION_TYPE_*, the curve each needs, and the types not supported. */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as ecc from '@bitcoinerlab/secp256k1';
import { Keypair, SystemProgram, Transaction as SolanaTransaction } from '@solana/web3.js';
import type { TurnkeyApiTypes } from '@turnkey/http';
import { Psbt, initEccLib, payments } from 'bitcoinjs-lib';
import { Transaction as EthereumTransaction, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import type { TCurveName } from '../derivation/derive-key.js';
import { signTransaction, type TSignTransactionInput } from './sign-transaction.js';
import { SigningError } from './signing-error.js';
import { reasonOf } from '../test-vectors.js';

initEccLib(ecc);

const SECP_KEY = new Uint8Array(32).fill(0x31);
const SECP_PUBLIC = secp256k1.getPublicKey(SECP_KEY, true);
const ED_KEY = new Uint8Array(32).fill(0x32);
const ED_PUBLIC = ed25519.getPublicKey(ED_KEY);

const secp = { curve: 'CURVE_SECP256K1' as TCurveName, privateKey: SECP_KEY, publicKey: SECP_PUBLIC };
const ed = { curve: 'CURVE_ED25519' as TCurveName, privateKey: ED_KEY, publicKey: ED_PUBLIC };

// The wire enum and ours must not drift apart.
const wireTypes: TurnkeyApiTypes['v1TransactionType'][] = ['TRANSACTION_TYPE_ETHEREUM', 'TRANSACTION_TYPE_SOLANA', 'TRANSACTION_TYPE_TRON', 'TRANSACTION_TYPE_BITCOIN', 'TRANSACTION_TYPE_TEMPO'];
const asOurs: TSignTransactionInput['type'][] = wireTypes;

const ethereumUnsigned = EthereumTransaction.from({ type: 2, chainId: 1n, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 21_000n, to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', value: 1n }).unsignedSerialized.slice(2);

function solanaUnsigned(): string {
  const payer = Keypair.fromSeed(ED_KEY).publicKey;
  const tx = new SolanaTransaction({ feePayer: payer, recentBlockhash: Keypair.fromSeed(new Uint8Array(32).fill(1)).publicKey.toBase58() });
  tx.add(SystemProgram.transfer({ fromPubkey: payer, toPubkey: Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey, lamports: 5 }));
  return tx.serialize({ requireAllSignatures: false, verifySignatures: false }).toString('hex');
}

function bitcoinUnsigned(): string {
  const psbt = new Psbt();
  psbt.addInput({ hash: new Uint8Array(32).fill(3), index: 0, witnessUtxo: { script: payments.p2wpkh({ pubkey: SECP_PUBLIC }).output!, value: 10_000n } });
  psbt.addOutput({ script: payments.p2wpkh({ pubkey: SECP_PUBLIC }).output!, value: 9_000n });
  return psbt.toBase64();
}


describe('signTransaction', () => {
  it('covers every wire transaction type', () => {
    expect(asOurs).toHaveLength(5);
  });

  it('signs TRANSACTION_TYPE_ETHEREUM with a secp256k1 key', () => {
    const signed = signTransaction({ type: 'TRANSACTION_TYPE_ETHEREUM', ...secp, unsignedTransaction: ethereumUnsigned });
    expect(EthereumTransaction.from(`0x${signed}`).from).toBe(new Wallet(`0x${Buffer.from(SECP_KEY).toString('hex')}`).address);
  });

  it('signs TRANSACTION_TYPE_SOLANA with an ed25519 key', () => {
    const signed = signTransaction({ type: 'TRANSACTION_TYPE_SOLANA', ...ed, unsignedTransaction: solanaUnsigned() });
    expect(SolanaTransaction.from(Buffer.from(signed, 'hex')).verifySignatures()).toBe(true);
  });

  it('signs TRANSACTION_TYPE_BITCOIN with a secp256k1 key and returns the PSBT as hex', () => {
    const signed = signTransaction({ type: 'TRANSACTION_TYPE_BITCOIN', ...secp, unsignedTransaction: bitcoinUnsigned() });
    const psbt = Psbt.fromHex(signed);
    expect(psbt.validateSignaturesOfAllInputs((pubkey, hash, signature) => ecc.verify(hash, pubkey, signature))).toBe(true);
  });

  it('refuses TRON and TEMPO as not supported', () => {
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_TRON', ...secp, unsignedTransaction: '00' }))).toBe('UNSUPPORTED');
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_TEMPO', ...secp, unsignedTransaction: '00' }))).toBe('UNSUPPORTED');
  });

  it('refuses a key on the wrong curve for the chain', () => {
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_ETHEREUM', ...ed, unsignedTransaction: ethereumUnsigned }))).toBe('INVALID_REQUEST');
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_BITCOIN', ...ed, unsignedTransaction: bitcoinUnsigned() }))).toBe('INVALID_REQUEST');
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_SOLANA', ...secp, unsignedTransaction: solanaUnsigned() }))).toBe('INVALID_REQUEST');
    expect(reasonOf(() => signTransaction({ type: 'TRANSACTION_TYPE_ETHEREUM', ...secp, curve: 'CURVE_P256', unsignedTransaction: ethereumUnsigned }))).toBe('INVALID_REQUEST');
  });

  it('refuses an unknown transaction type', () => {
    const type = 'TRANSACTION_TYPE_COSMOS' as TSignTransactionInput['type'];
    expect(reasonOf(() => signTransaction({ type, ...secp, unsignedTransaction: '00' }))).toBe('INVALID_REQUEST');
  });
});
