/**
 * Properties of the one Ethereum reader, as its two callers see it: the policy reader
 * (`ethereumTransactionFields`) and the signer (`signEthereumTransaction`).
 *
 * Valid transactions are generated as structured values and encoded by `@ethereumjs/rlp` after the
 * field orders of the EIPs, spelled out here again on purpose: a test that took them from
 * `layout.ts` could not catch a wrong table. Malformed ones are mutations of valid ones (truncated,
 * a byte flipped, bytes appended, an RLP length prefix changed or made non-canonical) or random.
 * ethers, `@ethereumjs/rlp` and `micro-eth-signer` are the differential oracles.
 *
 * The secp256k1 primitive is replaced by a recorder (a real signature costs a millisecond, ten
 * thousand of them most of a minute): what these properties test is which bytes reach it and what
 * the signer serializes around its result. ECDSA itself is checked against ethers in `sign.spec.ts`.
 * Inside the properties, `node:assert` stands in for `expect`, whose deep equality is too slow for
 * ten thousand runs of byte arrays.
 */
import assert from 'node:assert/strict';
import { RLP as ejsRlp } from '@ethereumjs/rlp';
import { Transaction } from 'ethers';
import fc from 'fast-check';
import { RLP as microRlp } from 'micro-eth-signer/core/rlp.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it, vi } from 'vitest';
import { SigningError } from '../../signing/signing-error.js';
import { ethereumTransactionFields, type TEthereumTransactionFields } from './fields.js';
import { decodeRlp, type TRlpItem } from './rlp.js';
import { signEthereumTransaction } from './sign.js';

const digests = vi.hoisted(() => [] as Uint8Array[]);
vi.mock('../../keys/secp256k1.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../keys/secp256k1.js')>()),
  // Deterministic stand-in: r is the digest, s the digest reversed, the parity its first bit.
  signSecp256k1Digest: (digest: Uint8Array) => {
    digests.push(Uint8Array.from(digest));
    return { r: Uint8Array.from(digest), s: Uint8Array.from(digest).reverse(), recovery: digest[0]! & 1 };
  },
}));

const NUM_RUNS = 10_000;
const PRIVATE_KEY = new Uint8Array(32).fill(0x42);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

// ---------------------------------------------------------------------------------------------
// Generated transactions
// ---------------------------------------------------------------------------------------------

interface TGeneratedTx {
  type: 0 | 1 | 2 | 3 | 4;
  /** Legacy only: the 9-field EIP-155 form. */
  eip155: boolean;
  chainId: bigint;
  nonce: bigint;
  gasPrice: bigint;
  maxPriorityFeePerGas: bigint;
  maxFeePerGas: bigint;
  gasLimit: bigint;
  to: Uint8Array;
  value: bigint;
  data: Uint8Array;
  accessList: [Uint8Array, Uint8Array[]][];
  maxFeePerBlobGas: bigint;
  blobVersionedHashes: Uint8Array[];
  authorizationList: [bigint, Uint8Array, bigint, bigint, bigint, bigint][];
}

// Integers around the RLP boundaries (0 is the empty string, < 0x80 is a single byte) and up to 32 bytes.
const uint = fc.oneof(fc.constantFrom(0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n), fc.bigInt({ min: 0n, max: 2n ** 64n }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }));
const bytesN = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const address = bytesN(20);

const generatedTx: fc.Arbitrary<TGeneratedTx> = fc
  .record({
    type: fc.constantFrom(0 as const, 1 as const, 2 as const, 3 as const, 4 as const),
    eip155: fc.boolean(),
    chainId: uint,
    nonce: uint,
    gasPrice: uint,
    maxPriorityFeePerGas: uint,
    maxFeePerGas: uint,
    gasLimit: uint,
    to: address,
    creation: fc.boolean(),
    value: uint,
    // Short, and 50 to 80 bytes: across the 55-byte switch from short to long length prefixes
    // (fast-check keeps unbounded sizes small, so the long ones are asked for explicitly).
    data: fc.oneof(fc.uint8Array({ maxLength: 16 }), fc.uint8Array({ minLength: 50, maxLength: 80 })),
    accessList: fc.array(fc.tuple(address, fc.array(bytesN(32), { maxLength: 2 })), { maxLength: 2 }),
    maxFeePerBlobGas: uint,
    blobVersionedHashes: fc.array(bytesN(32), { maxLength: 2 }),
    // ethers (the oracle) holds yParity as 0 or 1; EIP-7702 itself allows any uint8, and so do we.
    authorizationList: fc.array(fc.tuple(uint, address, fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.constantFrom(0n, 1n), uint, uint), { maxLength: 2 }),
  })
  .map(({ creation, ...tx }) => ({
    ...tx,
    // Blob and set-code transactions cannot create contracts; EIP-155 forbids chain id 0.
    to: creation && tx.type <= 2 ? new Uint8Array(0) : tx.to,
    chainId: tx.type === 0 && tx.eip155 && tx.chainId === 0n ? 1n : tx.chainId,
  }));

/** The unsigned fields in EIP order (EIP-155, EIP-2930, EIP-1559, EIP-4844, EIP-7702). */
function unsignedItems(tx: TGeneratedTx): unknown[] {
  const { chainId, nonce, gasPrice, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList } = tx;
  switch (tx.type) {
    case 0:
      return tx.eip155 ? [nonce, gasPrice, gasLimit, to, value, data, chainId, 0n, 0n] : [nonce, gasPrice, gasLimit, to, value, data];
    case 1:
      return [chainId, nonce, gasPrice, gasLimit, to, value, data, accessList];
    case 2:
      return [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList];
    case 3:
      return [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList, tx.maxFeePerBlobGas, tx.blobVersionedHashes];
    case 4:
      return [chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList, tx.authorizationList];
  }
}

function encodeTx(tx: TGeneratedTx): Uint8Array {
  const body = ejsRlp.encode(unsignedItems(tx) as Parameters<typeof ejsRlp.encode>[0]);
  return tx.type === 0 ? body : Uint8Array.from([tx.type, ...body]);
}

/** What a policy must see for `tx`, worked out from the generated values, not from our reader. */
function expectedFields(tx: TGeneratedTx): TEthereumTransactionFields {
  const fields: TEthereumTransactionFields = {
    type: tx.type === 0 ? 'LEGACY' : (`TYPE_${tx.type}` as const),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    to: tx.to.length === 0 ? '' : `0x${hex(tx.to)}`,
    value: tx.value,
    data: `0x${hex(tx.data)}`,
  };
  if (tx.type !== 0 || tx.eip155) fields.chainId = tx.chainId;
  if (tx.type <= 1) fields.gasPrice = tx.gasPrice;
  else {
    fields.maxPriorityFeePerGas = tx.maxPriorityFeePerGas;
    fields.maxFeePerGas = tx.maxFeePerGas;
    fields.gasPrice = tx.maxFeePerGas;
  }
  if (tx.type === 3) fields.maxFeePerBlobGas = tx.maxFeePerBlobGas;
  return fields;
}

const toBigInt = (item: TRlpItem | undefined): bigint => {
  if (!(item instanceof Uint8Array)) throw new Error('expected a byte string');
  return item.length === 0 ? 0n : BigInt(`0x${hex(item)}`);
};

/** The fields of a signed serialization, read by `@ethereumjs/rlp` after the EIP field orders. */
function signedFields(signed: Uint8Array, type: TGeneratedTx['type']): { fields: Omit<TEthereumTransactionFields, 'type'>; items: TRlpItem[]; tail: bigint[] } {
  const body = type === 0 ? signed : signed.subarray(1);
  if (type !== 0) expect(signed[0]).toBe(type);
  const items = ejsRlp.decode(body) as TRlpItem[];
  const at = (i: number) => items[i] as Uint8Array;
  const tail = items.slice(-3).map(toBigInt);
  const unsigned = items.slice(0, -3);
  if (type === 0) {
    const [v] = tail;
    const fields: Omit<TEthereumTransactionFields, 'type'> = { nonce: toBigInt(at(0)), gasPrice: toBigInt(at(1)), gasLimit: toBigInt(at(2)), to: at(3).length ? `0x${hex(at(3))}` : '', value: toBigInt(at(4)), data: `0x${hex(at(5))}` };
    // EIP-155: v = chainId·2 + 35 + parity; before it, 27 + parity.
    if (v! >= 35n) fields.chainId = (v! - 35n) / 2n;
    return { fields, items: unsigned, tail };
  }
  const head = { chainId: toBigInt(at(0)), nonce: toBigInt(at(1)) };
  if (type === 1) return { fields: { ...head, gasPrice: toBigInt(at(2)), gasLimit: toBigInt(at(3)), to: at(4).length ? `0x${hex(at(4))}` : '', value: toBigInt(at(5)), data: `0x${hex(at(6))}` }, items: unsigned, tail };
  const fields: Omit<TEthereumTransactionFields, 'type'> = {
    ...head,
    maxPriorityFeePerGas: toBigInt(at(2)),
    maxFeePerGas: toBigInt(at(3)),
    gasPrice: toBigInt(at(3)),
    gasLimit: toBigInt(at(4)),
    to: at(5).length ? `0x${hex(at(5))}` : '',
    value: toBigInt(at(6)),
    data: `0x${hex(at(7))}`,
  };
  if (type === 3) fields.maxFeePerBlobGas = toBigInt(at(9));
  return { fields, items: unsigned, tail };
}

// ---------------------------------------------------------------------------------------------
// Malformed bytes
// ---------------------------------------------------------------------------------------------

/** Offsets of every RLP length prefix in a canonical encoding (not single bytes, which have none). */
function prefixOffsets(bytes: Uint8Array, start: number, end: number, out: number[] = []): number[] {
  let at = start;
  while (at < end) {
    const prefix = bytes[at]!;
    if (prefix < 0x80) {
      at += 1;
      continue;
    }
    out.push(at);
    const base = prefix >= 0xc0 ? 0xc0 : 0x80;
    let length = prefix - base;
    let headerSize = 1;
    if (length > 55) {
      headerSize += length - 55;
      length = 0;
      for (let i = 1; i < headerSize; i++) length = length * 256 + bytes[at + i]!;
    }
    if (base === 0xc0) prefixOffsets(bytes, at + headerSize, at + headerSize + length, out);
    at += headerSize + length;
  }
  return out;
}

type TMutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; at: number; mask: number }
  | { kind: 'append'; extra: Uint8Array }
  | { kind: 'length'; which: number; delta: number }
  | { kind: 'longForm'; which: number };

const mutation: fc.Arbitrary<TMutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('append' as const), extra: fc.uint8Array({ minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('length' as const), which: fc.nat(), delta: fc.constantFrom(-2, -1, 1, 2) }),
  fc.record({ kind: fc.constant('longForm' as const), which: fc.nat() }),
);

function mutate(valid: Uint8Array, start: number, m: TMutation): Uint8Array {
  const bytes = Uint8Array.from(valid);
  switch (m.kind) {
    case 'truncate':
      return bytes.subarray(0, m.at % bytes.length);
    case 'flip':
      bytes[m.at % bytes.length]! ^= m.mask;
      return bytes;
    case 'append':
      return Uint8Array.from([...bytes, ...m.extra]);
    case 'length':
    case 'longForm': {
      const offsets = prefixOffsets(valid, start, valid.length);
      const at = offsets[m.which % offsets.length]!;
      const prefix = bytes[at]!;
      if (m.kind === 'length') {
        bytes[at] = (prefix + m.delta + 256) % 256;
        return bytes;
      }
      // The same length in the long form (or a long form with a leading zero): valid RLP shape, not canonical.
      const base = prefix >= 0xc0 ? 0xc0 : 0x80;
      const replacement = prefix - base <= 55 ? [base + 56, prefix - base] : [prefix + 1, 0, ...bytes.subarray(at + 1, at + 1 + prefix - base - 55)];
      const skip = prefix - base <= 55 ? 1 : 1 + prefix - base - 55;
      return Uint8Array.from([...bytes.subarray(0, at), ...replacement, ...bytes.subarray(at + skip)]);
    }
  }
}

/** Bytes that are mostly almost-transactions, sometimes noise (with a plausible type byte). */
const anyBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(generatedTx, mutation).map(([tx, m]) => mutate(encodeTx(tx), tx.type === 0 ? 0 : 1, m)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 120 }) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 0, max: 5 }), fc.uint8Array({ maxLength: 120 })).map(([type, rest]) => Uint8Array.from([type, ...rest])) },
);

/** The fields ethers read, in the policy's spelling (ethers says chain id 0 for "none"). */
function ethersView(oracle: Transaction): unknown {
  return {
    type: oracle.type,
    chainId: oracle.chainId,
    nonce: BigInt(oracle.nonce),
    gasLimit: oracle.gasLimit,
    to: oracle.to?.toLowerCase() ?? '',
    value: oracle.value,
    data: oracle.data,
    gasPrice: oracle.type! <= 1 ? oracle.gasPrice : oracle.maxFeePerGas,
    maxPriorityFeePerGas: oracle.type! >= 2 ? oracle.maxPriorityFeePerGas : undefined,
    maxFeePerBlobGas: oracle.type === 3 ? oracle.maxFeePerBlobGas : undefined,
  };
}

function policyView(policy: TEthereumTransactionFields): unknown {
  const { type, chainId, nonce, gasLimit, to, value, data, gasPrice, maxPriorityFeePerGas, maxFeePerBlobGas } = policy;
  return { type: type === 'LEGACY' ? 0 : Number(type.slice(-1)), chainId: chainId ?? 0n, nonce, gasLimit, to, value, data, gasPrice, maxPriorityFeePerGas, maxFeePerBlobGas };
}

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

describe('ethereumTransactionFields and signEthereumTransaction read the same bytes the same way', () => {
  it('the policy reader refuses exactly the bytes the signer refuses as malformed, for the same reason', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const unsignedHex = hex(bytes);
        const policy = outcome(() => ethereumTransactionFields(unsignedHex));
        const signer = outcome(() => signEthereumTransaction(PRIVATE_KEY, unsignedHex));
        if (policy.ok || signer.ok) {
          assert.deepStrictEqual({ policy: policy.ok, signer: signer.ok }, { policy: true, signer: true });
          return;
        }
        assert.ok(signer.reason === 'MALFORMED_INPUT' || signer.reason === 'UNSUPPORTED', signer.reason);
        assert.deepStrictEqual({ reason: policy.reason, message: policy.message }, { reason: signer.reason, message: signer.message });
      }),
      { numRuns: NUM_RUNS },
    );
  });

  it('the fields the policy sees are the generated ones, the ones the signed transaction carries, and the ones ethers reads', () => {
    fc.assert(
      fc.property(generatedTx, (tx) => {
        const unsigned = encodeTx(tx);
        const policy = ethereumTransactionFields(hex(unsigned));
        assert.deepStrictEqual(policy, expectedFields(tx));

        const signed = Uint8Array.from(Buffer.from(signEthereumTransaction(PRIVATE_KEY, hex(unsigned)), 'hex'));
        const { fields, items, tail } = signedFields(signed, tx.type);
        const { type: _, ...policyWithoutType } = policy;
        assert.deepStrictEqual(fields, policyWithoutType);
        // The signed transaction carries the unsigned items unchanged (legacy EIP-155 drops its tail)...
        const unsignedItems = ejsRlp.decode(tx.type === 0 ? unsigned : unsigned.subarray(1)) as TRlpItem[];
        assert.deepStrictEqual(normalize(items), normalize(tx.type === 0 ? unsignedItems.slice(0, 6) : unsignedItems));
        // ... the signature is over exactly those items (with the chain id the policy saw, for EIP-155) ...
        const reencoded = ejsRlp.encode(tx.type === 0 && policy.chainId !== undefined ? [...(items as Uint8Array[]), policy.chainId, 0n, 0n] : (items as Uint8Array[]));
        const signedPreimage = tx.type === 0 ? reencoded : Uint8Array.from([tx.type, ...reencoded]);
        const digest = digests.at(-1)!;
        assert.equal(hex(digest), hex(keccak_256(signedPreimage)));
        assert.deepStrictEqual(tail.slice(1), [toBigInt(digest), toBigInt(Uint8Array.from(digest).reverse())]);
        // ... and v carries that parity, and the chain id the policy saw.
        const parity = BigInt(digest[0]! & 1);
        const v = tail[0]!;
        if (tx.type !== 0) assert.equal(v, parity);
        else if (policy.chainId === undefined) assert.equal(v, 27n + parity);
        else assert.equal(v, policy.chainId * 2n + 35n + parity);

        // ethers holds nonces as JS numbers: beyond 2^53 it refuses what the EIPs (and we) accept.
        if (tx.nonce > BigInt(Number.MAX_SAFE_INTEGER)) {
          assert.throws(() => Transaction.from(`0x${hex(unsigned)}`));
          return;
        }
        assert.deepStrictEqual(ethersView(Transaction.from(`0x${hex(unsigned)}`)), policyView(policy));
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

describe('the Ethereum reader against ethers', () => {
  // Refusals of ours that ethers does not make: each is a rule `rlp.ts` or `transaction.ts` states.
  const STRICTNESS_RULES = [
    // Canonical RLP only: one encoding per item (ethers reads all three of these).
    /length of the item at offset \d+ has a leading zero/,
    /uses the long form for a length of/,
    /single byte 0x[0-9a-f]+ at offset \d+ must be encoded as itself/,
    /has a leading zero byte \(non-canonical integer\)/,
    // ethers reads non-zero placeholders as a signed legacy transaction; we refuse to sign over a signature.
    /the last two fields of an EIP-155 unsigned transaction must be 0/,
    // Likewise a typed transaction with its three signature fields: ethers reads it as signed.
    /transaction has \d+ fields, got \d+ \(is it already signed\?\)/,
    // Every integer field has the width its EIP gives it (`transaction.ts`'s layouts: nonces 64
    // bits per EIP-2681, yParity one byte, amounts 256 bits); ethers reads some as unbounded integers
    // (CI found an EIP-7702 authorization's 9-byte nonce).
    /must fit in \d+ bytes/,
    // EIP-155's unsigned form with chainId 0 is what the 6-field form already says (no chain); ethers
    // reads [..., 0, 0, 0] as chain 0, we ask for the 6 fields so one payload has one meaning.
    /EIP-155 chainId must not be 0/,
  ];
  // Values the EIPs allow that ethers refuses: it holds nonces as JS numbers, and yParity as 0 or 1.
  const ETHERS_LIMITS = [/overflow/, /invalid yParity/];

  it('ethers reads whatever we accept to the same fields; what it accepts and we refuse breaks a documented rule', () => {
    fc.assert(
      fc.property(anyBytes, (bytes) => {
        const ours = outcome(() => ethereumTransactionFields(hex(bytes)));
        let theirs: Transaction | Error;
        try {
          theirs = Transaction.from(`0x${hex(bytes)}`);
        } catch (error) {
          theirs = error as Error;
        }
        if (ours.ok) {
          if (theirs instanceof Error) assert.ok(ETHERS_LIMITS.some((limit) => limit.test(theirs.message)), `ethers refused what we accept: ${theirs.message}`);
          else assert.deepStrictEqual(ethersView(theirs), policyView(ours.value));
        } else if (!(theirs instanceof Error)) {
          assert.ok(STRICTNESS_RULES.some((rule) => rule.test(ours.message)), `ethers accepts what we refuse for an undocumented reason: ${ours.message}`);
        }
      }),
      // Counterexamples CI found, kept: a 9-field legacy transaction with chainId, r and s all 0
      // (seed 1998090605); a type-4 transaction whose authorization nonce is 9 bytes long (seed 1535322957).
      { numRuns: NUM_RUNS, examples: [[Uint8Array.from([222,1,128,128,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,128,129,129,128,128,128])], [Uint8Array.from([4,248,209,128,128,128,128,128,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,128,128,248,114,248,89,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,248,66,160,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,160,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,214,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,192,248,63,227,128,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,137,1,0,0,0,0,0,0,1,130,1,0,128,218,128,148,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,128,1,128,128])]] },
    );
  });
});

describe('decodeRlp against @ethereumjs/rlp and micro-eth-signer', () => {
  // Our decoder's one rule beyond both libraries: nesting depth (ours 32, micro-eth-signer 1024,
  // @ethereumjs/rlp none). Nothing generated here nests that deep, so any other disagreement fails.
  const libraries = [
    ['@ethereumjs/rlp', (bytes: Uint8Array) => ejsRlp.decode(bytes)],
    ['micro-eth-signer', (bytes: Uint8Array) => microRlp.decode(bytes)],
  ] as const;

  it('accepts exactly what both libraries accept, and decodes it to the same items', () => {
    fc.assert(
      fc.property(anyBytes, fc.boolean(), (bytes, skipTypeByte) => {
        // Typed transactions are `type ‖ rlp`: decode the RLP after the type byte too.
        const input = skipTypeByte && bytes.length > 0 && bytes[0]! < 0x80 ? bytes.subarray(1) : bytes;
        const ours = outcome(() => decodeRlp(input));
        if (input.length === 0) {
          // @ethereumjs/rlp reads no bytes as the empty string; there is no item there to read.
          assert.equal(ours.ok, false);
          return;
        }
        for (const [name, decode] of libraries) {
          let theirs: unknown;
          let refused = false;
          try {
            theirs = decode(input);
          } catch {
            refused = true;
          }
          assert.equal(refused, !ours.ok, name);
          if (ours.ok) assert.deepStrictEqual(normalize(theirs), normalize(ours.value), name);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});

/** Items as nested arrays of hex strings, so views and copies compare equal. */
function normalize(item: unknown): unknown {
  return Array.isArray(item) ? item.map(normalize) : hex(item as Uint8Array);
}
