/**
 * Contract-call decoding: calldata built by hand from the ABI spec (selector, then 32-byte words),
 * so ethers, which decodes, is not also the oracle. The ERC-20 `transfer` selector a9059cbb is the
 * published one (keccak256("transfer(address,uint256)")[..4]).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../signing/signing-error.js';
import { decodeEthereumContractCall, parseEthereumAbi } from './contract-call.js';

const ERC20 = JSON.stringify([
  { type: 'function', name: 'transfer', stateMutability: 'nonpayable', inputs: [{ name: 'dst', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'guy', type: 'address' }, { name: 'wad', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'event', name: 'Transfer', anonymous: false, inputs: [{ name: 'src', type: 'address', indexed: true }, { name: 'dst', type: 'address', indexed: true }, { name: 'wad', type: 'uint256', indexed: false }] },
]);
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const addressWord = (a: string) => a.slice(2).toLowerCase().padStart(64, '0');
const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7';
const transfer = (to: string, amount: bigint) => `0xa9059cbb${addressWord(to)}${word(amount)}`;

function refusal(json: string): string {
  try {
    parseEthereumAbi(json);
  } catch (e) {
    expect(e).toBeInstanceOf(SigningError);
    return (e as Error).message;
  }
  throw new Error('expected the ABI to be refused');
}

describe('parseEthereumAbi', () => {
  it('reads an ERC-20 ABI: functions by selector, events kept out of them', () => {
    const abi = parseEthereumAbi(ERC20);
    expect([...abi.functions.keys()].sort()).toEqual(['0x095ea7b3', '0xa9059cbb']);
  });

  it('refuses what is not an ABI, naming the entry', () => {
    expect(refusal('{"type":"function"')).toMatch(/not JSON/);
    expect(refusal('{"abi":[]}')).toMatch(/JSON array/);
    expect(refusal('[]')).toMatch(/no entries/);
    expect(refusal('[1]')).toMatch(/entry 0 is not an object/);
    // ethers' Interface.from would drop these silently; each is a refusal here.
    expect(refusal(JSON.stringify([{ type: 'function', name: 'ok', inputs: [] }, { type: 'function', name: 'x', inputs: [{ name: 'a', type: 'uint999' }] }]))).toMatch(/entry 1 \(x\)/);
    expect(refusal(JSON.stringify([{ type: 'frob', name: 'x' }]))).toMatch(/entry 0/);
    expect(refusal(JSON.stringify([{ type: 'function', inputs: [] }]))).toMatch(/entry 0/);
  });

  it('refuses two functions with one selector (the call would be ambiguous)', () => {
    const f = { type: 'function', name: 'transfer', inputs: [{ name: 'a', type: 'address' }, { name: 'b', type: 'uint256' }] };
    expect(refusal(JSON.stringify([f, { ...f, inputs: [{ name: 'x', type: 'address' }, { name: 'y', type: 'uint256' }] }]))).toMatch(/selector 0xa9059cbb/);
  });
});

describe('decodeEthereumContractCall', () => {
  const abi = parseEthereumAbi(ERC20);

  it('decodes an ERC-20 transfer: name, selector and named arguments (address lowercase, amount an integer)', () => {
    const call = decodeEthereumContractCall(abi, transfer(RECIPIENT, 1_500_000n))!;
    expect(call.functionName).toBe('transfer');
    expect(call.functionSignature).toBe('0xa9059cbb');
    expect(call.args).toEqual(new Map<string, unknown>([['dst', RECIPIENT.toLowerCase()], ['wad', 1_500_000n]]));
    expect(decodeEthereumContractCall(abi, transfer(RECIPIENT, 1n).slice(2).toUpperCase())?.functionName).toBe('transfer');
  });

  it('is undefined for a call the ABI does not describe, or calldata that is not its canonical encoding', () => {
    expect(decodeEthereumContractCall(abi, '0x')).toBeUndefined();
    expect(decodeEthereumContractCall(abi, '0xa9059c')).toBeUndefined();
    expect(decodeEthereumContractCall(abi, `0x23b872dd${addressWord(RECIPIENT)}${addressWord(RECIPIENT)}${word(1n)}`)).toBeUndefined(); // transferFrom: not in the ABI
    expect(decodeEthereumContractCall(abi, transfer(RECIPIENT, 1n).slice(0, -2))).toBeUndefined(); // short
    expect(decodeEthereumContractCall(abi, `${transfer(RECIPIENT, 1n)}00`)).toBeUndefined(); // trailing byte
    expect(decodeEthereumContractCall(abi, `0xa9059cbb${'ff'.repeat(12)}${RECIPIENT.slice(2)}${word(1n)}`)).toBeUndefined(); // dirty address padding
    expect(decodeEthereumContractCall(abi, 'zz')).toBeUndefined();
  });

  it('a uint8 with high bits set is undecodable (ethers alone would mask it to another value)', () => {
    const small = parseEthereumAbi(JSON.stringify([{ type: 'function', name: 'set', inputs: [{ name: 'v', type: 'uint8' }] }]));
    const selector = [...small.functions.keys()][0]!.slice(2);
    expect(decodeEthereumContractCall(small, `0x${selector}${word(5n)}`)?.args.get('v')).toBe(5n);
    expect(decodeEthereumContractCall(small, `0x${selector}${word(0x105n)}`)).toBeUndefined();
  });

  it('tuples become structs by component name, arrays lists, bytes lowercase hex, unnamed arguments their position', () => {
    const abi2 = parseEthereumAbi(
      JSON.stringify([
        {
          type: 'function',
          name: 'route',
          inputs: [
            { name: 'hop', type: 'tuple', components: [{ name: 'pool', type: 'address' }, { name: 'fee', type: 'uint24' }] },
            { name: 'amounts', type: 'uint256[]' },
            { name: '', type: 'bool' },
          ],
        },
      ]),
    );
    const selector = [...abi2.functions.keys()][0]!.slice(2);
    // (address,uint24) static tuple: 2 words; uint256[] dynamic: offset word; bool: 1 word; then the array: length, items.
    const data = `0x${selector}${addressWord(RECIPIENT)}${word(3000n)}${word(4n * 32n)}${word(1n)}${word(2n)}${word(7n)}${word(8n)}`;
    const call = decodeEthereumContractCall(abi2, data)!;
    expect(call.args.get('hop')).toEqual(new Map<string, unknown>([['pool', RECIPIENT.toLowerCase()], ['fee', 3000n]]));
    expect(call.args.get('amounts')).toEqual([7n, 8n]);
    expect(call.args.get('2')).toBe(true);
  });

  it('property: every transfer decodes to its recipient and amount; every proper prefix of it does not decode', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (bytes, amount) => {
        const to = `0x${Buffer.from(bytes).toString('hex')}`;
        const data = transfer(to, amount);
        const call = decodeEthereumContractCall(abi, data)!;
        expect(call.args.get('dst')).toBe(to);
        expect(call.args.get('wad')).toBe(amount);
        for (const cut of [2, 10, 74, data.length - 2]) expect(decodeEthereumContractCall(abi, data.slice(0, cut))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe('nesting', () => {
  it('an ABI nested deeper than 64 levels is refused before anything recursive reads it (it would overflow the stack)', () => {
    // Built as text: 9,000 nested tuples (about 400 kB) are too deep for JSON.stringify itself.
    const levels = 9_000;
    const param = `${'{"name":"a","type":"tuple","components":['.repeat(levels)}{"name":"a","type":"uint8"}${']}'.repeat(levels)}`;
    expect(refusal(`[{"type":"function","name":"f","inputs":[${param}]}]`)).toMatch(/deeper than 64 levels/);
    // Brackets inside strings do not count.
    expect(parseEthereumAbi(JSON.stringify([{ type: 'function', name: 'f', inputs: [{ name: 'a', type: 'uint8', internalType: '[[[[{{{{\\"'.repeat(40) }] }])).functions.size).toBe(1);
  });
});
