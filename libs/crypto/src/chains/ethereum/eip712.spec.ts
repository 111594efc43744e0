/** EIP-712 digests: the EIP's own Mail vector, then typed data of every shape checked against ethers' TypedDataEncoder. */
import { TypedDataEncoder, Wallet, concat, getAddress, hexlify, keccak256, recoverAddress, type TypedDataField } from 'ethers';
import { signTyped } from 'micro-eth-signer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashTypedData, parseTypedData, type TTypedData } from './eip712.js';
import { SigningError } from '../../signing/signing-error.js';
import { reasonOf } from '../../test-vectors.js';

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** Our digest of `typedData` sent as JSON, as a client would. */
const digestOf = (typedData: unknown) => hex(hashTypedData(parseTypedData(JSON.stringify(typedData))));

/** ethers' digest of the same typed data (ethers wants `EIP712Domain` left out of `types`). */
function ethersDigest(typedData: { types: Record<string, TypedDataField[]>; domain: Record<string, unknown>; message: Record<string, unknown> }): string {
  const { EIP712Domain: _, ...types } = typedData.types;
  return TypedDataEncoder.hash(typedData.domain, types, typedData.message);
}


// The example of EIP-712 itself (eip-712.md, "Example"), with its published digest.
const MAIL = {
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
      { name: 'verifyingContract', type: 'address' },
    ],
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallet', type: 'address' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person' },
      { name: 'contents', type: 'string' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Ether Mail', version: '1', chainId: 1, verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC' },
  message: {
    from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
    to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
    contents: 'Hello, Bob!',
  },
};

// Arrays of structs, nested and fixed-size arrays, and every atomic type.
const GROUP_MAIL = {
  types: {
    Person: [
      { name: 'name', type: 'string' },
      { name: 'wallets', type: 'address[]' },
    ],
    Attachment: [
      { name: 'digest', type: 'bytes32' },
      { name: 'body', type: 'bytes' },
      { name: 'tag', type: 'bytes4' },
    ],
    Mail: [
      { name: 'from', type: 'Person' },
      { name: 'to', type: 'Person[]' },
      { name: 'contents', type: 'string' },
      { name: 'attachments', type: 'Attachment[2]' },
      { name: 'grid', type: 'uint256[][]' },
      { name: 'deltas', type: 'int8[3]' },
      { name: 'urgent', type: 'bool' },
      { name: 'nonce', type: 'uint64' },
      { name: 'balance', type: 'int256' },
    ],
  },
  primaryType: 'Mail',
  domain: { name: 'Group Mail', chainId: '0x89', salt: `0x${'ab'.repeat(32)}` },
  message: {
    from: { name: 'Cow ✉️ 🐄', wallets: ['0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826', '0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef'] },
    to: [
      { name: 'Bob', wallets: ['0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'] },
      { name: '', wallets: [] },
    ],
    contents: 'Hello, all!',
    attachments: [
      { digest: `0x${'11'.repeat(32)}`, body: '0x', tag: '0x01020304' },
      { digest: `0x${'22'.repeat(32)}`, body: `0x${'ff'.repeat(100)}`, tag: '0xa9059cbb' },
    ],
    grid: [['1', '2'], [], ['115792089237316195423570985008687907853269984665640564039457584007913129639935']],
    deltas: [-128, 0, 127],
    urgent: true,
    nonce: '18446744073709551615',
    balance: '-57896044618658097711785492504343953926634992332820282019728792003956564819968',
  },
};

// Uniswap Permit2's PermitSingle: the typed data wallets sign most often.
const PERMIT_SINGLE = {
  types: {
    PermitDetails: [
      { name: 'token', type: 'address' },
      { name: 'amount', type: 'uint160' },
      { name: 'expiration', type: 'uint48' },
      { name: 'nonce', type: 'uint48' },
    ],
    PermitSingle: [
      { name: 'details', type: 'PermitDetails' },
      { name: 'spender', type: 'address' },
      { name: 'sigDeadline', type: 'uint256' },
    ],
  },
  primaryType: 'PermitSingle',
  domain: { name: 'Permit2', chainId: 1, verifyingContract: '0x000000000022D473030F116dDEE9F6B43aC78BA3' },
  message: {
    details: { token: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', amount: '1461501637330902918203684832716283019655932542975', expiration: 1735689600, nonce: 0 },
    spender: '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAD',
    sigDeadline: '1735693200',
  },
};

describe('hashTypedData', () => {
  it("matches EIP-712's published digest for its Mail example", () => {
    expect(digestOf(MAIL)).toBe('0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2');
    expect(ethersDigest(MAIL)).toBe('0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2');
  });

  it('matches ethers with EIP712Domain left out of types (inferred from the domain, as viem sends it)', () => {
    const { EIP712Domain: _, ...types } = MAIL.types;
    expect(digestOf({ ...MAIL, types })).toBe(ethersDigest(MAIL));
  });

  it('matches ethers for arrays of structs, nested and fixed arrays, bytes, bool and signed integers', () => {
    expect(digestOf(GROUP_MAIL)).toBe(ethersDigest(GROUP_MAIL));
  });

  it('matches ethers for Permit2 PermitSingle', () => {
    expect(digestOf(PERMIT_SINGLE)).toBe(ethersDigest(PERMIT_SINGLE));
  });

  it('matches what ethers signs: a Wallet signature over our digest recovers through verifyTypedData', async () => {
    const wallet = Wallet.createRandom();
    const types = GROUP_MAIL.types;
    const signature = await wallet.signTypedData(GROUP_MAIL.domain, types, GROUP_MAIL.message);
    expect(wallet.signingKey.sign(digestOf(GROUP_MAIL)).serialized).toBe(signature);
  });

  it('signs the domain alone when primaryType is EIP712Domain', () => {
    const domainOnly = { types: MAIL.types, primaryType: 'EIP712Domain', domain: MAIL.domain };
    expect(digestOf(domainOnly)).toBe(keccak256(concat(['0x1901', TypedDataEncoder.hashDomain(MAIL.domain)])));
  });

  it('ignores message fields the types do not declare, as ethers and viem do', () => {
    const extra = { ...PERMIT_SINGLE, message: { ...PERMIT_SINGLE.message, note: 'not signed' } };
    expect(digestOf(extra)).toBe(ethersDigest(PERMIT_SINGLE));
  });

  it('matches ethers on random values of every atomic type', () => {
    const types = {
      Leaf: [
        { name: 'u8', type: 'uint8' },
        { name: 'i16', type: 'int16' },
        { name: 'u256', type: 'uint256' },
        { name: 'i256', type: 'int256' },
        { name: 'b', type: 'bool' },
        { name: 'a', type: 'address' },
        { name: 'b1', type: 'bytes1' },
        { name: 'b32', type: 'bytes32' },
        { name: 'dyn', type: 'bytes' },
        { name: 's', type: 'string' },
      ],
      Root: [
        { name: 'leaves', type: 'Leaf[]' },
        { name: 'pair', type: 'Leaf[2]' },
      ],
    };
    const bytesHex = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max }).map((b) => hexlify(b));
    const leaf = fc.record({
      u8: fc.integer({ min: 0, max: 255 }),
      i16: fc.integer({ min: -32768, max: 32767 }),
      u256: fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }).map(String),
      i256: fc.bigInt({ min: -(1n << 255n), max: (1n << 255n) - 1n }).map((n) => (n < 0n ? String(n) : `0x${n.toString(16)}`)),
      b: fc.boolean(),
      a: bytesHex(20, 20).map((a) => getAddress(a)),
      b1: bytesHex(1, 1),
      b32: bytesHex(32, 32),
      dyn: bytesHex(0, 80),
      s: fc.string({ unit: 'grapheme', maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.array(leaf, { maxLength: 3 }), fc.tuple(leaf, leaf), fc.integer({ min: 1, max: 2 ** 40 }), (leaves, pair, chainId) => {
        const typedData = { types, primaryType: 'Root', domain: { name: 'Fuzz', chainId }, message: { leaves, pair } };
        expect(digestOf(typedData)).toBe(ethersDigest(typedData));
      }),
      { numRuns: 60 },
    );
  });
});

describe('parseTypedData / hashTypedData refusals', () => {
  const withMessage = (message: Record<string, unknown>) => ({ ...PERMIT_SINGLE, message: { ...PERMIT_SINGLE.message, ...message } });
  const withDetails = (details: Record<string, unknown>) => withMessage({ details: { ...PERMIT_SINGLE.message.details, ...details } });
  const cases: [string, unknown][] = [
    ['a uint out of range', withDetails({ expiration: 2 ** 48 })],
    ['a negative uint', withDetails({ nonce: -1 })],
    ['an unsafe JSON number', withMessage({ sigDeadline: 2 ** 60 })],
    ['a fractional number', withDetails({ nonce: 1.5 })],
    ['an integer string with junk', withMessage({ sigDeadline: '12abc' })],
    ['an address with a bad checksum', withMessage({ spender: '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7FAd' })],
    ['an address of the wrong length', withMessage({ spender: '0x3fC91A3afd70395Cd496C647d5a6CC9D4B2b7F' })],
    ['a missing field', { ...PERMIT_SINGLE, message: { details: PERMIT_SINGLE.message.details, spender: PERMIT_SINGLE.message.spender } }],
    ['a struct given as a string', withMessage({ details: 'x' })],
    ['an unknown field type', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [{ name: 'details', type: 'Details' }] } }],
    ['uint without a width', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [{ name: 'sigDeadline', type: 'uint' }] } }],
    ['uint7', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [{ name: 'sigDeadline', type: 'uint7' }] } }],
    ['bytes33', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [{ name: 'sigDeadline', type: 'bytes33' }] } }],
    ['a field declared twice', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [...PERMIT_SINGLE.types.PermitSingle, { name: 'spender', type: 'address' }] } }],
    ['a field name that is not an identifier', { ...PERMIT_SINGLE, types: { ...PERMIT_SINGLE.types, PermitSingle: [{ name: 'a,uint256 b', type: 'uint256' }] } }],
    ['a primaryType not in types', { ...PERMIT_SINGLE, primaryType: 'Permit' }],
    ['an unknown domain key without EIP712Domain', { ...PERMIT_SINGLE, domain: { ...PERMIT_SINGLE.domain, chain: 1 } }],
    ['bool as a string', { ...MAIL, types: { ...MAIL.types, Mail: [{ name: 'urgent', type: 'bool' }] }, message: { urgent: 'true' } }],
    ['bytes32 of 31 bytes', { ...MAIL, types: { ...MAIL.types, Mail: [{ name: 'd', type: 'bytes32' }] }, message: { d: `0x${'11'.repeat(31)}` } }],
    ['bytes with odd hex', { ...MAIL, types: { ...MAIL.types, Mail: [{ name: 'd', type: 'bytes' }] }, message: { d: '0x123' } }],
    ['a fixed array of the wrong length', { ...MAIL, types: { ...MAIL.types, Mail: [{ name: 'd', type: 'uint8[2]' }] }, message: { d: [1, 2, 3] } }],
    ['a string with a lone surrogate', { ...MAIL, message: { ...MAIL.message, contents: 'a\ud800b' } }],
    ['no message', { types: MAIL.types, primaryType: 'Mail', domain: MAIL.domain }],
  ];
  for (const [name, typedData] of cases) {
    it(`refuses ${name}`, () => {
      expect(reasonOf(() => digestOf(typedData))).toBe('MALFORMED_INPUT');
    });
  }

  it('refuses JSON that is not typed data', () => {
    for (const payload of ['not json', '[]', '"x"', '{"types":[],"primaryType":"A","domain":{},"message":{}}']) {
      expect(reasonOf(() => parseTypedData(payload))).toBe('MALFORMED_INPUT');
    }
  });

  it('refuses values nested deeper than 32 levels', () => {
    let value: unknown = 1;
    for (let i = 0; i < 40; i++) value = [value];
    const typedData: TTypedData = { types: { A: [{ name: 'x', type: `uint8${'[]'.repeat(40)}` }] }, primaryType: 'A', domain: {}, message: { x: value } };
    expect(reasonOf(() => hashTypedData(typedData))).toBe('MALFORMED_INPUT');
  });
});

describe('micro-eth-signer as a second oracle (why eip712.ts stays hand-written)', () => {
  const wallet = new Wallet(`0x${'42'.repeat(32)}`);
  // micro-eth-signer's types are generic over the literal typed data; the oracle only needs the value.
  const microSign = (typedData: unknown) => signTyped(typedData as Parameters<typeof signTyped>[0], wallet.privateKey);

  it('agrees on the digest: its signature over PermitSingle and GroupMail recovers against ours', () => {
    for (const typedData of [PERMIT_SINGLE, GROUP_MAIL]) {
      expect(recoverAddress(digestOf(typedData), microSign(typedData))).toBe(wallet.address);
    }
  });

  it('signs what we refuse: a lone surrogate (as U+FFFD) and a mixed-case address with a wrong checksum', () => {
    const surrogate = { ...MAIL, message: { ...MAIL.message, contents: 'a\ud800b' } };
    expect(reasonOf(() => digestOf(surrogate))).toBe('MALFORMED_INPUT');
    expect(() => microSign(surrogate)).not.toThrow();
    const to = PERMIT_SINGLE.message.spender;
    const badChecksum = { ...PERMIT_SINGLE, message: { ...PERMIT_SINGLE.message, spender: `${to.slice(0, -1)}${to.at(-1) === 'D' ? 'd' : 'D'}` } };
    expect(reasonOf(() => digestOf(badChecksum))).toBe('MALFORMED_INPUT');
    expect(() => microSign(badChecksum)).not.toThrow();
  });

  it('refuses what viem and ethers send: a message field that types does not declare', () => {
    const extra = { ...PERMIT_SINGLE, message: { ...PERMIT_SINGLE.message, memo: 'x' } };
    expect(digestOf(extra)).toBe(digestOf(PERMIT_SINGLE));
    expect(() => microSign(extra)).toThrow(/unexpected field/);
  });
});
