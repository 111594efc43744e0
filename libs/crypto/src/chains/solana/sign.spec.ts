/**
 * Solana transactions built and serialized by @solana/web3.js (legacy and v0, one and two signers,
 * with an address lookup table), signed here, deserialized by web3.js and verified.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  AddressLookupTableAccount,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../signing/signing-error.js';
import { signSolanaTransaction } from './sign.js';
import { reasonOf } from '../../test-vectors.js';

const PRIVATE_KEY = new Uint8Array(32).fill(5);
const PUBLIC_KEY = ed25519.getPublicKey(PRIVATE_KEY);
const ours = Keypair.fromSeed(PRIVATE_KEY);
const other = Keypair.fromSeed(new Uint8Array(32).fill(6));
const recipient = Keypair.fromSeed(new Uint8Array(32).fill(8)).publicKey;
const BLOCKHASH = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey.toBase58();

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const sign = (unsigned: Uint8Array | string) => signSolanaTransaction(PRIVATE_KEY, PUBLIC_KEY, typeof unsigned === 'string' ? unsigned : hex(unsigned));


function legacyTransfer(feePayer: PublicKey, from: PublicKey): Transaction {
  const tx = new Transaction({ feePayer, recentBlockhash: BLOCKHASH });
  tx.add(SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: 1_000_000 }));
  return tx;
}

function v0Transfer(payer: PublicKey, from: PublicKey, lookupTables: AddressLookupTableAccount[] = []): VersionedTransaction {
  const instructions = [SystemProgram.transfer({ fromPubkey: from, toPubkey: recipient, lamports: 42 })];
  return new VersionedTransaction(new TransactionMessage({ payerKey: payer, recentBlockhash: BLOCKHASH, instructions }).compileToV0Message(lookupTables));
}

/** Each required signer's signature over the message bytes, checked with noble. */
function verifyV0(tx: VersionedTransaction): boolean {
  const message = tx.message.serialize();
  return tx.signatures.every((sig, i) => ed25519.verify(sig, message, tx.message.staticAccountKeys[i]!.toBytes()));
}

describe('signSolanaTransaction', () => {
  it('the seed gives the same key to noble and web3.js', () => {
    expect(ours.publicKey.toBase58()).toBe(new PublicKey(PUBLIC_KEY).toBase58());
  });

  it('signs a legacy transfer serialized with requireAllSignatures: false (as @turnkey/solana sends it)', () => {
    const unsigned = legacyTransfer(ours.publicKey, ours.publicKey).serialize({ requireAllSignatures: false, verifySignatures: false });
    const signedHex = sign(unsigned);
    expect(signedHex).toMatch(/^[0-9a-f]+$/);
    const signed = Transaction.from(Buffer.from(signedHex, 'hex'));
    expect(signed.verifySignatures()).toBe(true);
    expect(signed.signature).not.toBeNull();
    // Exactly what web3.js would produce signing with the same key.
    const reference = legacyTransfer(ours.publicKey, ours.publicKey);
    reference.sign(ours);
    expect(signedHex).toBe(hex(reference.serialize()));
  });

  it("fills only our slot when another key pays the fee, keeping the other signer's signature", () => {
    const tx = legacyTransfer(other.publicKey, ours.publicKey);
    tx.partialSign(other);
    const signed = Transaction.from(Buffer.from(sign(tx.serialize({ requireAllSignatures: false, verifySignatures: false })), 'hex'));
    expect(signed.signatures.map((s) => s.publicKey.toBase58())).toEqual([other.publicKey.toBase58(), ours.publicKey.toBase58()]);
    expect(signed.verifySignatures()).toBe(true);
  });

  it('leaves a missing co-signer slot zero (verifySignatures(false) passes, verifySignatures() does not)', () => {
    const tx = legacyTransfer(other.publicKey, ours.publicKey);
    const signed = Transaction.from(Buffer.from(sign(tx.serialize({ requireAllSignatures: false, verifySignatures: false })), 'hex'));
    expect(signed.signatures[0]!.signature).toBeNull();
    expect(signed.verifySignatures(false)).toBe(true);
    expect(signed.verifySignatures()).toBe(false);
  });

  it('signs a v0 transfer', () => {
    const signed = VersionedTransaction.deserialize(Buffer.from(sign(v0Transfer(ours.publicKey, ours.publicKey).serialize()), 'hex'));
    expect(signed.version).toBe(0);
    expect(verifyV0(signed)).toBe(true);
    const reference = v0Transfer(ours.publicKey, ours.publicKey);
    reference.sign([ours]);
    expect(hex(signed.serialize())).toBe(hex(reference.serialize()));
  });

  it('signs a v0 transaction that loads its recipient from an address lookup table, co-signed by the fee payer', () => {
    const table = new AddressLookupTableAccount({
      key: Keypair.fromSeed(new Uint8Array(32).fill(10)).publicKey,
      state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [recipient] },
    });
    const tx = v0Transfer(other.publicKey, ours.publicKey, [table]);
    expect(tx.message.addressTableLookups).toHaveLength(1);
    tx.sign([other]);
    const signed = VersionedTransaction.deserialize(Buffer.from(sign(tx.serialize()), 'hex'));
    expect(verifyV0(signed)).toBe(true);
  });

  it('accepts a bare legacy message (no signature section) and returns the full transaction', () => {
    const message = legacyTransfer(ours.publicKey, ours.publicKey).serializeMessage();
    const signed = Transaction.from(Buffer.from(sign(message), 'hex'));
    expect(signed.verifySignatures()).toBe(true);
  });

  it('accepts a bare v0 message', () => {
    const message = v0Transfer(ours.publicKey, ours.publicKey).message.serialize();
    expect(verifyV0(VersionedTransaction.deserialize(Buffer.from(sign(`0x${hex(message)}`), 'hex')))).toBe(true);
  });
});

describe('signSolanaTransaction refusals', () => {
  const unsignedLegacy = legacyTransfer(ours.publicKey, ours.publicKey).serialize({ requireAllSignatures: false, verifySignatures: false });

  it('refuses a transaction our key is not a required signer of', () => {
    const theirs = legacyTransfer(other.publicKey, other.publicKey).serialize({ requireAllSignatures: false, verifySignatures: false });
    expect(reasonOf(() => sign(theirs))).toBe('NOT_A_SIGNER');
    expect(reasonOf(() => sign(v0Transfer(other.publicKey, other.publicKey).serialize()))).toBe('NOT_A_SIGNER');
  });

  it('refuses a transaction where our key is only a read-only, non-signing account', () => {
    const tx = new Transaction({ feePayer: other.publicKey, recentBlockhash: BLOCKHASH });
    tx.add(SystemProgram.transfer({ fromPubkey: other.publicKey, toPubkey: ours.publicKey, lamports: 1 }));
    expect(reasonOf(() => sign(tx.serialize({ requireAllSignatures: false, verifySignatures: false })))).toBe('NOT_A_SIGNER');
  });

  const malformed: [string, () => string][] = [
    ['empty input', () => ''],
    ['non-hex input', () => 'zz'],
    ['a truncated transaction', () => hex(unsignedLegacy.subarray(0, unsignedLegacy.length - 1))],
    ['a trailing byte', () => `${hex(unsignedLegacy)}00`],
    ['a signature count that does not match the header', () => `02${'00'.repeat(64)}${hex(unsignedLegacy.subarray(1))}`],
    ['a non-minimal signature count', () => `8000${hex(unsignedLegacy.subarray(65))}`],
  ];
  for (const [name, input] of malformed) {
    it(`refuses ${name}`, () => {
      expect(reasonOf(() => sign(input()))).toBe('MALFORMED_INPUT');
    });
  }

  it('refuses instruction indexes that name no account, as the policy reader does (they share message.ts)', () => {
    // Offsets in the legacy transfer: 1 + 64 (signatures) + 3 (header) + 1 + 3 × 32 (keys) + 32 (blockhash) + 1 (count).
    const programIndex = Uint8Array.from(unsignedLegacy).fill(9, 198, 199);
    expect(() => sign(programIndex)).toThrow(/instruction 0 program id index 9 is not a static account key/);
    const accountIndex = Uint8Array.from(unsignedLegacy).fill(7, 201, 202);
    expect(() => sign(accountIndex)).toThrow(/instruction 0 account index 7 is out of range/);
  });

  it('refuses a message version other than legacy and v0, in a transaction or alone (as a V1 transaction starts)', () => {
    const v0 = v0Transfer(ours.publicKey, ours.publicKey).serialize();
    const v1 = Uint8Array.from(v0);
    v1[65] = 0x81;
    expect(reasonOf(() => sign(v1))).toBe('UNSUPPORTED');
    expect(reasonOf(() => sign(v1.subarray(65)))).toBe('UNSUPPORTED');
  });

  it('refuses bytes that read both as a transaction and as a bare message', () => {
    // As a bare message: header (1, 0, 0), key A, blockhash, one instruction whose data runs to the end.
    // As a transaction: one signature slot (bytes 1..64), then a message with header (1, 0, 0) at 65.
    const bytes = new Uint8Array(134);
    bytes.set([1, 0, 0, 1], 0);
    bytes.fill(0x11, 4, 36);
    bytes.fill(0x22, 36, 65);
    bytes.set([1, 0, 0], 65);
    bytes.set([1, 0, 0, 62], 68);
    bytes.fill(0x33, 72, 133);
    bytes[133] = 0;
    expect(reasonOf(() => sign(bytes))).toBe('MALFORMED_INPUT');
    expect(() => sign(bytes)).toThrow(/both as a transaction and as a bare message/);
  });

  it('refuses a public key that is not the private key’s as a programming error', () => {
    expect(() => signSolanaTransaction(PRIVATE_KEY, other.publicKey.toBytes(), hex(unsignedLegacy))).toThrow(TypeError);
  });
});
