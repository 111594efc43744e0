/**
 * Properties of the one Solana reader (`message.ts`), as its two callers see it: the policy reader
 * (`solanaTransactionFields`) and the signer (`signSolanaTransaction`).
 *
 * Valid transactions are generated as structured messages (legacy and v0, one to three signers, our
 * key among them, lookup tables, instructions over static and loaded accounts) and encoded here after
 * the wire format; `@solana/web3.js` must serialize the same message to the same bytes. Malformed
 * ones are mutations of valid ones (truncated, a byte flipped, bytes appended, a compact-u16 length
 * changed or spelled non-minimally) or random. `@solana/web3.js` is the differential oracle: it must
 * decode whatever we accept to the same message, and whatever it accepts that we refuse must be
 * refused for one of the strictness rules `message.ts` documents.
 *
 * The ed25519 primitive is replaced by a recorder (ten thousand real signatures, and the key checks
 * before them, would take most of a minute): what these properties test is which bytes reach it and
 * where its result lands. The signature itself is checked against web3.js in `sign.spec.ts`.
 * Inside the properties, `node:assert` stands in for `expect`, whose deep equality is too slow for
 * ten thousand runs.
 */
import assert from 'node:assert/strict';
import { sha512 } from '@noble/hashes/sha2.js';
import { base58 } from '@scure/base';
import { Message, MessageV0, PublicKey, VersionedMessage, VersionedTransaction } from '@solana/web3.js';
import fc from 'fast-check';
import { describe, it, vi } from 'vitest';
import { SigningError } from '../../signing/signing-error.js';
import { SOLANA_ADDRESS_TABLE_LOOKUP, solanaTransactionFields, type TSolanaTransactionFields } from './fields.js';
import { parseSolanaTransactionAs, type TSolanaMessage, type TSolanaMessageLookup } from './message.js';
import { signSolanaTransaction } from './sign.js';

const signed = vi.hoisted(() => [] as Uint8Array[]);
vi.mock('@noble/curves/ed25519.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@noble/curves/ed25519.js')>();
  const publicKeys = new Map<string, Uint8Array>();
  return {
    ...actual,
    ed25519: {
      ...actual.ed25519,
      getPublicKey: (secret: Uint8Array) => {
        const hex = Buffer.from(secret).toString('hex');
        if (!publicKeys.has(hex)) publicKeys.set(hex, actual.ed25519.getPublicKey(secret));
        return publicKeys.get(hex)!;
      },
      // Stand-in signature: SHA-512 of the message, recorded.
      sign: (message: Uint8Array) => {
        signed.push(Uint8Array.from(message));
        return sha512(message);
      },
    },
  };
});

const NUM_RUNS = 10_000;
const PRIVATE_KEY = new Uint8Array(32).fill(5);
const { ed25519 } = await import('@noble/curves/ed25519.js');
const PUBLIC_KEY = ed25519.getPublicKey(PRIVATE_KEY);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// ---------------------------------------------------------------------------------------------
// Generated transactions
// ---------------------------------------------------------------------------------------------

interface TGenerated {
  message: TSolanaMessage;
  form: 'transaction' | 'message';
  /** Transaction form: the slots as sent (zeros or another signer's bytes). */
  signatures: Uint8Array[];
}

const key = fc.uint8Array({ minLength: 32, maxLength: 32 });

const generated: fc.Arbitrary<TGenerated> = fc
  .record({
    version: fc.constantFrom('legacy' as const, 'v0' as const),
    numRequiredSignatures: fc.integer({ min: 1, max: 3 }),
    readonlySigned: fc.nat({ max: 2 }),
    numReadonlyUnsignedAccounts: fc.nat({ max: 3 }),
    extraKeys: fc.nat({ max: 3 }),
    ourSlot: fc.nat({ max: 2 }),
    form: fc.constantFrom('transaction' as const, 'message' as const),
  })
  .chain((shape) => {
    const keyCount = shape.numRequiredSignatures + shape.numReadonlyUnsignedAccounts + shape.extraKeys;
    const lookups: fc.Arbitrary<TSolanaMessageLookup[]> =
      shape.version === 'v0'
        ? fc.array(fc.record({ accountKey: key, writableIndexes: fc.array(fc.nat({ max: 255 }), { maxLength: 3 }), readonlyIndexes: fc.array(fc.nat({ max: 255 }), { maxLength: 3 }) }), { maxLength: 2 })
        : fc.constant([]);
    return fc.record({
      shape: fc.constant(shape),
      keys: fc.uniqueArray(key, { minLength: keyCount, maxLength: keyCount, selector: hex }),
      recentBlockhash: key,
      lookups,
      // Instructions are drawn over "slots" and mapped to indexes once the account count is known.
      instructions: fc.array(
        fc.record({
          program: fc.nat(),
          accounts: fc.array(fc.nat(), { maxLength: 4 }),
          // Past 127 bytes the data length takes a second compact-u16 byte.
          data: fc.oneof({ weight: 4, arbitrary: fc.uint8Array({ maxLength: 40 }) }, { weight: 1, arbitrary: fc.uint8Array({ minLength: 120, maxLength: 140 }) }),
        }),
        { maxLength: 3 },
      ),
      signatures: fc.array(fc.oneof(fc.constant(new Uint8Array(64)), fc.uint8Array({ minLength: 64, maxLength: 64 })), { minLength: shape.numRequiredSignatures, maxLength: shape.numRequiredSignatures }),
    });
  })
  .map(({ shape, keys, recentBlockhash, lookups, instructions, signatures }) => {
    const staticAccountKeys = keys.filter((k) => hex(k) !== hex(PUBLIC_KEY));
    while (staticAccountKeys.length < keys.length) staticAccountKeys.push(Uint8Array.from(recentBlockhash).reverse());
    staticAccountKeys[shape.ourSlot % shape.numRequiredSignatures] = PUBLIC_KEY;
    const loaded = lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
    const message: TSolanaMessage = {
      version: shape.version,
      header: {
        numRequiredSignatures: shape.numRequiredSignatures,
        numReadonlySignedAccounts: shape.readonlySigned % shape.numRequiredSignatures,
        numReadonlyUnsignedAccounts: shape.numReadonlyUnsignedAccounts,
      },
      staticAccountKeys,
      recentBlockhash,
      instructions: instructions.map((ix) => ({
        programIdIndex: ix.program % staticAccountKeys.length,
        accountKeyIndexes: ix.accounts.map((a) => a % (staticAccountKeys.length + loaded)),
        data: ix.data,
      })),
      addressTableLookups: lookups,
    };
    return { message, form: shape.form, signatures };
  })
  // The reversed blockhash stands in for a key that collided with ours; it must not collide in turn.
  .filter(({ message }) => new Set(message.staticAccountKeys.map(hex)).size === message.staticAccountKeys.length);

function shortvec(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    let byte = rest & 0x7f;
    rest >>= 7;
    if (rest) byte |= 0x80;
    out.push(byte);
  } while (rest);
  return out;
}

/** The wire bytes of `tx`, and the offsets of every compact-u16 in them (for mutations). */
function encode(tx: TGenerated): { bytes: Uint8Array; lengths: number[] } {
  const out: number[] = [];
  const lengths: number[] = [];
  const length = (n: number) => {
    lengths.push(out.length);
    out.push(...shortvec(n));
  };
  const { message } = tx;
  if (tx.form === 'transaction') {
    length(tx.signatures.length);
    for (const s of tx.signatures) out.push(...s);
  }
  if (message.version === 'v0') out.push(0x80);
  out.push(message.header.numRequiredSignatures, message.header.numReadonlySignedAccounts, message.header.numReadonlyUnsignedAccounts);
  length(message.staticAccountKeys.length);
  for (const k of message.staticAccountKeys) out.push(...k);
  out.push(...message.recentBlockhash);
  length(message.instructions.length);
  for (const ix of message.instructions) {
    out.push(ix.programIdIndex);
    length(ix.accountKeyIndexes.length);
    out.push(...ix.accountKeyIndexes);
    length(ix.data.length);
    out.push(...ix.data);
  }
  if (message.version === 'v0') {
    length(message.addressTableLookups.length);
    for (const l of message.addressTableLookups) {
      out.push(...l.accountKey);
      length(l.writableIndexes.length);
      out.push(...l.writableIndexes);
      length(l.readonlyIndexes.length);
      out.push(...l.readonlyIndexes);
    }
  }
  return { bytes: Uint8Array.from(out), lengths };
}

/** web3.js's serialization of the same message. */
function web3Serialize(message: TSolanaMessage): Uint8Array {
  const header = message.header;
  if (message.version === 'v0') {
    return new MessageV0({
      header,
      staticAccountKeys: message.staticAccountKeys.map((k) => new PublicKey(k)),
      recentBlockhash: base58.encode(message.recentBlockhash),
      compiledInstructions: message.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accountKeyIndexes: ix.accountKeyIndexes, data: ix.data })),
      addressTableLookups: message.addressTableLookups.map((l) => ({ accountKey: new PublicKey(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })),
    }).serialize();
  }
  return new Message({
    header,
    accountKeys: message.staticAccountKeys.map((k) => new PublicKey(k)),
    recentBlockhash: base58.encode(message.recentBlockhash),
    instructions: message.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accounts: ix.accountKeyIndexes, data: base58.encode(ix.data) })),
  }).serialize();
}

/** What a policy must see for `message`, worked out from the Solana account rules, not from fields.ts. */
function expectedFields(message: TSolanaMessage): TSolanaTransactionFields {
  const { numRequiredSignatures: signers, numReadonlySignedAccounts: roSigned, numReadonlyUnsignedAccounts: roUnsigned } = message.header;
  const keys = message.staticAccountKeys.map((k) => base58.encode(k));
  const writable = (i: number) => (i < signers ? i < signers - roSigned : i < keys.length - roUnsigned);
  const loaded = [
    ...message.addressTableLookups.flatMap((l) => l.writableIndexes.map((index) => ({ addressTableKey: base58.encode(l.accountKey), index, writable: true }))),
    ...message.addressTableLookups.flatMap((l) => l.readonlyIndexes.map((index) => ({ addressTableKey: base58.encode(l.accountKey), index, writable: false }))),
  ];
  const instructions = message.instructions.map((ix) => ({
    programKey: keys[ix.programIdIndex]!,
    accounts: ix.accountKeyIndexes.map((i) => (i < keys.length ? { accountKey: keys[i]!, signer: i < signers, writable: writable(i) } : { accountKey: SOLANA_ADDRESS_TABLE_LOOKUP, signer: false, writable: loaded[i - keys.length]!.writable })),
    dataHex: hex(ix.data),
    addressTableLookups: ix.accountKeyIndexes.filter((i) => i >= keys.length).map((i) => loaded[i - keys.length]!),
  }));
  return {
    version: message.version,
    staticAccountKeys: keys,
    programKeys: [...new Set(instructions.map((ix) => ix.programKey))],
    instructions,
    // Random keys are never the System or Token programs: no transfers to decode.
    transfers: [],
    splTransfers: [],
    recentBlockhash: base58.encode(message.recentBlockhash),
    addressTableLookups: message.addressTableLookups.map((l) => ({ addressTableKey: base58.encode(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })),
    addressTableLookupReferences: loaded,
  };
}

/** A web3.js message as plain values, comparable with ours. */
function web3Plain(message: VersionedMessage): unknown {
  return {
    header: message.header,
    staticAccountKeys: message.staticAccountKeys.map((k) => k.toBase58()),
    recentBlockhash: message.recentBlockhash,
    instructions: message.compiledInstructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accountKeyIndexes: [...ix.accountKeyIndexes], data: hex(ix.data) })),
    addressTableLookups: message.addressTableLookups.map((l) => ({ accountKey: l.accountKey.toBase58(), writableIndexes: [...l.writableIndexes], readonlyIndexes: [...l.readonlyIndexes] })),
  };
}

function ourPlain(message: TSolanaMessage): unknown {
  return {
    header: message.header,
    staticAccountKeys: message.staticAccountKeys.map((k) => base58.encode(k)),
    recentBlockhash: base58.encode(message.recentBlockhash),
    instructions: message.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex, accountKeyIndexes: ix.accountKeyIndexes, data: hex(ix.data) })),
    addressTableLookups: message.addressTableLookups.map((l) => ({ accountKey: base58.encode(l.accountKey), writableIndexes: l.writableIndexes, readonlyIndexes: l.readonlyIndexes })),
  };
}

// ---------------------------------------------------------------------------------------------
// Malformed bytes
// ---------------------------------------------------------------------------------------------

type TMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'append'; extra: Uint8Array }
  | { kind: 'length'; which: number; delta: number }
  | { kind: 'nonMinimal'; which: number };

const mutation: fc.Arbitrary<TMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('length' as const), which: fc.nat(), delta: fc.constantFrom(-2, -1, 1, 2) }),
  fc.record({ kind: fc.constant('nonMinimal' as const), which: fc.nat() }),
);

function mutate({ bytes: valid, lengths }: { bytes: Uint8Array; lengths: number[] }, m: TMutation): Uint8Array {
  const bytes = Uint8Array.from(valid);
  switch (m.kind) {
    case 'truncate':
      return bytes.subarray(0, m.at % bytes.length);
    case 'flip':
      bytes[m.at % bytes.length]! ^= m.mask;
      return bytes;
    case 'append':
      return Uint8Array.from([...bytes, ...m.extra]);
    case 'length': {
      const at = lengths[m.which % lengths.length]!;
      bytes[at] = (bytes[at]! + m.delta + 256) % 256;
      return bytes;
    }
    case 'nonMinimal': {
      // The last byte of a compact-u16 gains the continuation bit and a zero byte follows it.
      let at = lengths[m.which % lengths.length]!;
      while (bytes[at]! & 0x80) at++;
      bytes[at]! |= 0x80;
      return Uint8Array.from([...bytes.subarray(0, at + 1), 0, ...bytes.subarray(at + 1)]);
    }
  }
}

const anyBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 1, arbitrary: generated.map((tx) => encode(tx).bytes) },
  { weight: 4, arbitrary: fc.tuple(generated, mutation).map(([tx, m]) => mutate(encode(tx), m)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
);

type TOutcome<T> = { ok: true; value: T } | { ok: false; reason: string; message: string };

/** Runs `fn`; a SigningError is a refusal, anything else a bug that fails the property. */
function outcome<T>(fn: () => T): TOutcome<T> {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    if (error instanceof SigningError) return { ok: false, reason: error.reason, message: error.message };
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('solanaTransactionFields and signSolanaTransaction read the same bytes the same way', () => {
  it('the policy reader refuses exactly the bytes the signer refuses as malformed, for the same reason', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const policy = outcome(() => solanaTransactionFields(hex(bytes)));
        const signer = outcome(() => signSolanaTransaction(PRIVATE_KEY, PUBLIC_KEY, hex(bytes)));
        if (policy.ok) {
          // Well-formed; a mutation may have taken our key out of the signers, which is no malformation.
          assert.ok(signer.ok || signer.reason === 'NOT_A_SIGNER', signer.ok ? '' : signer.message);
          return;
        }
        assert.ok(!signer.ok, 'the signer signed bytes the policy reader refused');
        assert.deepStrictEqual({ reason: signer.reason, message: signer.message }, { reason: policy.reason, message: policy.message });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the fields the policy sees are the generated ones, and the ones of the message the signer signs', () => {
    fc.assert(
      fc.property(generated, (tx) => {
        const { bytes } = encode(tx);
        const messageBytes = tx.form === 'transaction' ? bytes.subarray(1 + 64 * tx.signatures.length) : bytes;

        const policy = outcome(() => solanaTransactionFields(hex(bytes)));
        if (!policy.ok) {
          // The one refusal a valid message can meet: it also reads as the other form.
          assert.match(policy.message, /read both as a transaction and as a bare message/);
          return;
        }
        assert.deepStrictEqual(policy.value, expectedFields(tx.message));

        const signedTx = VersionedTransaction.deserialize(Buffer.from(signSolanaTransaction(PRIVATE_KEY, PUBLIC_KEY, hex(bytes)), 'hex'));
        // What was signed is the message the policy read, byte for byte ...
        assert.equal(hex(signed.at(-1)!), hex(messageBytes));
        assert.equal(hex(signedTx.message.serialize()), hex(messageBytes));
        // ... web3.js reads it as the policy did: programs, accounts and data of every instruction ...
        const keys = signedTx.message.staticAccountKeys.map((k) => k.toBase58());
        assert.deepStrictEqual(keys, policy.value.staticAccountKeys);
        assert.equal(signedTx.message.recentBlockhash, policy.value.recentBlockhash);
        assert.deepStrictEqual(
          signedTx.message.compiledInstructions.map((ix) => ({
            programKey: keys[ix.programIdIndex],
            accounts: ix.accountKeyIndexes.map((i) => keys[i] ?? SOLANA_ADDRESS_TABLE_LOOKUP),
            dataHex: hex(ix.data),
          })),
          policy.value.instructions.map((ix) => ({ programKey: ix.programKey, accounts: ix.accounts.map((a) => a.accountKey), dataHex: ix.dataHex })),
        );
        // ... and our slot, only ours, holds the signature.
        const slot = keys.indexOf(base58.encode(PUBLIC_KEY));
        const sent = tx.form === 'transaction' ? tx.signatures : tx.signatures.map(() => new Uint8Array(64));
        assert.deepStrictEqual(
          signedTx.signatures.map(hex),
          sent.map((s, i) => hex(i === slot ? sha512(messageBytes) : s)),
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('the Solana reader against @solana/web3.js', () => {
  it('our test encoding is the wire format: web3.js serializes every generated message to the same bytes', () => {
    fc.assert(
      fc.property(generated, (tx) => {
        const { bytes } = encode(tx);
        const messageBytes = tx.form === 'transaction' ? bytes.subarray(1 + 64 * tx.signatures.length) : bytes;
        assert.equal(hex(web3Serialize(tx.message)), hex(messageBytes));
      }),
      { numRuns: NUM_RUNS },
    );
  });

  // Each is a refusal `message.ts` documents and web3.js does not make.
  const STRICTNESS_RULES = [
    /trailing byte/,
    /is not minimally encoded/,
    /does not fit in 16 bits/,
    /is listed twice/,
    /numRequiredSignatures must be at least 1/,
    /numReadonlySignedAccounts must leave the fee payer writable/,
    /header counts exceed the number of account keys/,
    /program id index \d+ is not a static account key/,
    /account index \d+ is out of range/,
    // web3.js reads a compact-u16 past the end of the input as 0.
    /(count|length) is truncated/,
  ];

  it('web3.js decodes whatever we accept to the same message; what it accepts and we refuse breaks a documented rule', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        for (const form of ['transaction', 'message'] as const) {
          const ours = outcome(() => parseSolanaTransactionAs(bytes, form));
          let theirs: { message: VersionedMessage; signatures: Uint8Array[] } | undefined;
          try {
            theirs = form === 'transaction' ? VersionedTransaction.deserialize(bytes) : { message: VersionedMessage.deserialize(bytes), signatures: [] };
          } catch {
            theirs = undefined;
          }
          if (ours.ok) {
            assert.ok(theirs, `web3.js refused a ${form} we accept`);
            assert.deepStrictEqual(web3Plain(theirs.message), ourPlain(ours.value.message));
            if (form === 'transaction') assert.deepStrictEqual(theirs.signatures.map(hex), ours.value.signatures.map(hex));
          } else if (theirs) {
            // A version we do not sign (web3.js reads V1 transactions) is UNSUPPORTED, not malformed.
            if (ours.reason === 'UNSUPPORTED') continue;
            assert.ok(
              STRICTNESS_RULES.some((rule) => rule.test(ours.message)),
              `web3.js accepts a ${form} we refuse for an undocumented reason: ${ours.message}`,
            );
          }
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
