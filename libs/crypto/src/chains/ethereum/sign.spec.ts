/**
 * Ethereum transactions: unsigned serializations built by ethers, signed here, then parsed back
 * by ethers (signer and every field) and compared byte for byte with ethers' own Wallet signature.
 */
import { Transaction, Wallet, type TransactionLike } from 'ethers';
import { describe, expect, it } from 'vitest';
import { decodeRlp, encodeRlp, encodeRlpUint, type TRlpItem } from './rlp.js';
import { signEthereumTransaction } from './sign.js';
import { SigningError } from '../../signing/signing-error.js';
import { reasonOf } from '../../test-vectors.js';

const PRIVATE_KEY = new Uint8Array(32).fill(0x42);
const wallet = new Wallet(`0x${Buffer.from(PRIVATE_KEY).toString('hex')}`);
const TO = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const ACCESS_LIST = [
  { address: '0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe', storageKeys: [`0x${'00'.repeat(31)}01`, `0x${'ab'.repeat(32)}`] },
  { address: TO, storageKeys: [] },
];

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const unhex = (text: string) => new Uint8Array(Buffer.from(text.replace(/^0x/, ''), 'hex'));


/** The fields a signature must not change, as ethers parses them. */
function fieldsOf(tx: Transaction) {
  return {
    type: tx.type,
    chainId: tx.chainId,
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    gasPrice: tx.gasPrice,
    maxFeePerGas: tx.maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas,
    to: tx.to,
    value: tx.value,
    data: tx.data,
    accessList: tx.type === 0 ? null : tx.accessList,
    maxFeePerBlobGas: tx.maxFeePerBlobGas,
    blobVersionedHashes: tx.blobVersionedHashes,
    authorizationList: tx.authorizationList,
  };
}

const authorization = wallet.authorizeSync({ address: '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B', nonce: 3n, chainId: 1n });

const cases: [string, TransactionLike][] = [
  ['legacy without chainId (pre-EIP-155, 6 fields)', { type: 0, nonce: 0, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: TO, value: 10n ** 18n, data: '0x', chainId: 0n }],
  ['legacy with EIP-155 chainId 1', { type: 0, nonce: 9, gasPrice: 20_000_000_000n, gasLimit: 21_000n, to: TO, value: 10n ** 18n, data: '0x', chainId: 1n }],
  ['legacy with a large chainId (v beyond one byte)', { type: 0, nonce: 1, gasPrice: 1n, gasLimit: 50_000n, to: TO, value: 0n, data: '0xa9059cbb', chainId: 11_155_111n }],
  ['legacy contract creation', { type: 0, nonce: 2, gasPrice: 1_000_000_000n, gasLimit: 3_000_000n, to: null, value: 0n, data: `0x6080604052${'00'.repeat(200)}`, chainId: 137n }],
  ['EIP-2930 with an access list', { type: 1, chainId: 1n, nonce: 3, gasPrice: 30_000_000_000n, gasLimit: 60_000n, to: TO, value: 5n, data: '0x1234', accessList: ACCESS_LIST }],
  ['EIP-1559', { type: 2, chainId: 1n, nonce: 4, maxPriorityFeePerGas: 2_000_000_000n, maxFeePerGas: 100_000_000_000n, gasLimit: 21_000n, to: TO, value: 123n, data: '0x', accessList: [] }],
  ['EIP-1559 with an access list on Base', { type: 2, chainId: 8453n, nonce: 2 ** 32, maxPriorityFeePerGas: 0n, maxFeePerGas: 1n, gasLimit: 1_000_000n, to: TO, value: 2n ** 255n, data: `0x${'ff'.repeat(100)}`, accessList: ACCESS_LIST }],
  ['EIP-1559 contract creation', { type: 2, chainId: 10n, nonce: 0, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 500_000n, to: null, value: 0n, data: '0x60006000', accessList: [] }],
  ['EIP-4844 (network form without blobs)', { type: 3, chainId: 1n, nonce: 5, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 21_000n, to: TO, value: 0n, data: '0x', accessList: [], maxFeePerBlobGas: 3n, blobVersionedHashes: [`0x01${'cd'.repeat(31)}`] }],
  ['EIP-7702 with an authorization', { type: 4, chainId: 1n, nonce: 6, maxPriorityFeePerGas: 1n, maxFeePerGas: 2n, gasLimit: 100_000n, to: TO, value: 0n, data: '0x', accessList: [], authorizationList: [authorization] }],
];

describe('signEthereumTransaction', () => {
  for (const [name, like] of cases) {
    it(`signs ${name}: ethers recovers our address, keeps every field, and signs the same bytes`, async () => {
      const unsigned = Transaction.from(like);
      const signedHex = signEthereumTransaction(PRIVATE_KEY, unsigned.unsignedSerialized);
      expect(signedHex).toMatch(/^[0-9a-f]+$/);
      const signed = Transaction.from(`0x${signedHex}`);
      expect(signed.from).toBe(wallet.address);
      expect(fieldsOf(signed)).toEqual(fieldsOf(unsigned));
      // RFC 6979 is deterministic, so ethers' own Wallet must produce the very same bytes.
      expect(`0x${signedHex}`).toBe(await wallet.signTransaction(like));
    });
  }

  it('accepts the unsigned transaction without the 0x prefix (as @turnkey/ethers and viem send it)', () => {
    const [, like] = cases[5]!;
    const unsigned = Transaction.from(like).unsignedSerialized;
    expect(signEthereumTransaction(PRIVATE_KEY, unsigned.slice(2))).toBe(signEthereumTransaction(PRIVATE_KEY, unsigned));
  });

  it('writes the legacy v as 27/28 without chainId and chainId·2 + 35/36 with it', () => {
    const vOf = (like: TransactionLike) => {
      const signed = decodeRlp(unhex(signEthereumTransaction(PRIVATE_KEY, Transaction.from(like).unsignedSerialized))) as TRlpItem[];
      return BigInt(`0x${hex(signed[6] as Uint8Array)}`);
    };
    expect([27n, 28n]).toContain(vOf(cases[0]![1]));
    expect([11_155_111n * 2n + 35n, 11_155_111n * 2n + 36n]).toContain(vOf(cases[2]![1]));
  });
});

describe('signEthereumTransaction refusals', () => {
  const legacy = decodeRlp(unhex(Transaction.from(cases[1]![1]).unsignedSerialized)) as TRlpItem[];
  const eip1559 = decodeRlp(unhex(Transaction.from(cases[5]![1]).unsignedSerialized).subarray(1)) as TRlpItem[];
  const typed = (type: number, items: TRlpItem[]) => `0x${type.toString(16).padStart(2, '0')}${hex(encodeRlp(items))}`;
  const withField = (items: TRlpItem[], index: number, value: TRlpItem) => items.map((item, i) => (i === index ? value : item));
  // Re-encodes a list shorter than 56 bytes with the (non-canonical) long-form header 0xf8.
  const longFormList = (type: number, items: TRlpItem[]) => {
    const body = encodeRlp(items).subarray(1);
    if (body.length > 55) throw new Error('fixture list is not short');
    return `0x0${type}f8${body.length.toString(16).padStart(2, '0')}${hex(body)}`;
  };
  const refuse = (unsigned: string) => reasonOf(() => signEthereumTransaction(PRIVATE_KEY, unsigned));

  const malformed: [string, string][] = [
    ['empty input', ''],
    ['odd-length hex', '0xc'],
    ['non-hex characters', '0xzz'],
    ['an RLP string instead of a list', '0x83646f67'],
    ['trailing bytes after a legacy list', `0x${hex(encodeRlp(legacy))}00`],
    ['a legacy list of 7 fields', `0x${hex(encodeRlp(legacy.slice(0, 7)))}`],
    ['a legacy nonce with a leading zero', `0x${hex(encodeRlp(withField(legacy, 0, Uint8Array.of(0, 9))))}`],
    ['a legacy `to` of 19 bytes', `0x${hex(encodeRlp(withField(legacy, 3, new Uint8Array(19))))}`],
    ['a legacy value that is a list', `0x${hex(encodeRlp(withField(legacy, 4, [])))}`],
    ['an already signed legacy transaction', `0x${hex(encodeRlp(withField(withField(legacy, 7, Uint8Array.of(1)), 8, Uint8Array.of(2))))}`],
    ['an EIP-155 transaction with chainId 0', `0x${hex(encodeRlp(withField(legacy, 6, new Uint8Array(0))))}`],
    ['an EIP-1559 list with a missing field', typed(2, eip1559.slice(0, 8))],
    ['an already signed EIP-1559 transaction', typed(2, [...eip1559, encodeRlpUint(1n), encodeRlpUint(5n), encodeRlpUint(6n)])],
    ['an EIP-1559 access list entry without storage keys', typed(2, withField(eip1559, 8, [[new Uint8Array(20)]]))],
    ['an EIP-1559 storage key of 31 bytes', typed(2, withField(eip1559, 8, [[new Uint8Array(20), [new Uint8Array(31)]]]))],
    ['an EIP-1559 chainId of 33 bytes', typed(2, withField(eip1559, 0, new Uint8Array(33).fill(1)))],
    ['an EIP-1559 list in the long form though it is short', longFormList(2, eip1559)],
    ['an EIP-7702 transaction creating a contract (empty to)', typed(4, [...withField(eip1559, 5, new Uint8Array(0)), []])],
    ['a first byte in the RLP-string range', '0x80'],
  ];
  for (const [name, unsigned] of malformed) {
    it(`refuses ${name}`, () => {
      expect(refuse(unsigned)).toBe('MALFORMED_INPUT');
    });
  }

  it('refuses transaction types it does not know', () => {
    expect(refuse(typed(5, eip1559))).toBe('UNSUPPORTED');
    expect(refuse(typed(0x7f, eip1559))).toBe('UNSUPPORTED');
    expect(refuse(typed(0, eip1559))).toBe('UNSUPPORTED');
  });

  it('refuses a private key that is not 32 bytes as a programming error', () => {
    expect(() => signEthereumTransaction(new Uint8Array(33), Transaction.from(cases[1]![1]).unsignedSerialized)).toThrow(TypeError);
  });
});
