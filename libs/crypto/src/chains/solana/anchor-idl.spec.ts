/**
 * Anchor IDL checking and Borsh decoding. Instruction data is built by hand from the Borsh spec
 * (little-endian integers, u32-length-prefixed strings and vectors, 1-byte option tags); the
 * legacy discriminator of `initialize`, afaf6d1f0d989bed, is the one every Anchor program
 * publishes (sha256("global:initialize")[..8]).
 */
import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { SigningError } from '../../signing/signing-error.js';
import { decodeAnchorInstruction, parseAnchorIdl } from './anchor-idl.js';

const PROGRAM = 'Vau1t6sLNxnzB7ZDsef8TLbPLfyZMYXH8WTNqUdm9g8';
const FROM = base58.encode(new Uint8Array(32).fill(1));
const TO = base58.encode(new Uint8Array(32).fill(2));

/** A 0.30+ IDL: explicit discriminators, `pubkey`, `{defined: {name}}`, composite accounts. */
const IDL = JSON.stringify({
  address: PROGRAM,
  metadata: { name: 'vault', version: '0.1.0', spec: '0.1.0' },
  instructions: [
    {
      name: 'withdraw',
      discriminator: [183, 18, 70, 156, 148, 109, 161, 34],
      accounts: [{ name: 'vault', writable: true }, { name: 'auth', accounts: [{ name: 'owner', signer: true }] }, { name: 'destination', writable: true }],
      args: [
        { name: 'amount', type: 'u64' },
        { name: 'memo', type: 'string' },
        { name: 'tip', type: { option: 'u8' } },
        { name: 'delta', type: 'i16' },
        { name: 'route', type: { vec: { defined: { name: 'Hop' } } } },
        { name: 'beneficiary', type: 'pubkey' },
      ],
    },
  ],
  types: [
    { name: 'Hop', type: { kind: 'struct', fields: [{ name: 'pool', type: 'pubkey' }, { name: 'side', type: { defined: { name: 'Side' } } }] } },
    { name: 'Side', type: { kind: 'enum', variants: [{ name: 'Bid' }, { name: 'Ask' }] } },
  ],
});

const hex = (...parts: (number[] | Uint8Array | string)[]) =>
  parts.map((p) => (typeof p === 'string' ? p : Buffer.from(p).toString('hex'))).join('');
const u64 = (n: bigint) => Buffer.from(new BigUint64Array([n]).buffer).toString('hex');
const u32 = (n: number) => Buffer.from(new Uint32Array([n]).buffer).toString('hex');
const str = (s: string) => u32(Buffer.byteLength(s)) + Buffer.from(s).toString('hex');

const withdrawData = (tail = '') =>
  hex([183, 18, 70, 156, 148, 109, 161, 34], u64(5_000n), str('rent'), [1, 7], [0xfe, 0xff], u32(1), base58.decode(TO), [1], base58.decode(FROM)) + tail;

function refusal(json: string): string {
  try {
    parseAnchorIdl(json);
  } catch (e) {
    expect(e).toBeInstanceOf(SigningError);
    return (e as Error).message;
  }
  throw new Error('expected the IDL to be refused');
}

describe('parseAnchorIdl', () => {
  it('reads a 0.30 IDL and a legacy one (discriminator from the name)', () => {
    expect(parseAnchorIdl(IDL).address).toBe(PROGRAM);
    const legacy = parseAnchorIdl(JSON.stringify({ version: '0.1.0', name: 'counter', instructions: [{ name: 'initialize', accounts: [{ name: 'counter', isMut: true, isSigner: false }], args: [{ name: 'start', type: 'u64' }] }] }));
    expect(Buffer.from(legacy.instructions[0]!.discriminator).toString('hex')).toBe('afaf6d1f0d989bed');
  });

  it('refuses what does not follow the IDL spec, naming the field', () => {
    expect(refusal('nope')).toMatch(/not JSON/);
    expect(refusal('[]')).toMatch(/not an Anchor IDL/);
    expect(refusal(JSON.stringify({ instructions: [] }))).toMatch(/instructions.*at least one/);
    expect(refusal(JSON.stringify({ instructions: [{ name: 'x', accounts: [], args: [{ name: 'a' }] }] }))).toMatch(/instructions\.0\.args\.0\.type/);
    expect(refusal(JSON.stringify({ instructions: [{ name: 'x', accounts: [], args: [{ name: 'a', type: 'u63' }] }] }))).toMatch(/argument a: unknown type u63/);
    expect(refusal(JSON.stringify({ instructions: [{ name: 'x', accounts: [], args: [{ name: 'a', type: { defined: 'Nope' } }] }] }))).toMatch(/Nope is not defined/);
    expect(refusal(JSON.stringify({ instructions: [{ name: 'a', discriminator: [1, 2], accounts: [], args: [] }, { name: 'b', discriminator: [1, 2], accounts: [], args: [] }] }))).toMatch(/same discriminator/);
    expect(refusal(JSON.stringify({ instructions: [{ name: 'a', discriminator: [1], accounts: [], args: [] }, { name: 'b', discriminator: [1, 2], accounts: [], args: [] }] }))).toMatch(/prefix/);
  });
});

describe('decodeAnchorInstruction', () => {
  const idl = parseAnchorIdl(IDL);
  const accounts = ['Vau1tAccount1111111111111111111111111111111', FROM, TO];

  it('decodes name, discriminator, named accounts (composites flattened) and every argument', () => {
    const ix = decodeAnchorInstruction(idl, withdrawData(), accounts)!;
    expect(ix.instructionName).toBe('withdraw');
    expect(ix.discriminator).toBe('b712469c946da122');
    expect(ix.namedAccounts).toEqual(new Map([['vault', accounts[0]], ['owner', FROM], ['destination', TO]]));
    expect(ix.args.get('amount')).toBe(5_000n);
    expect(ix.args.get('memo')).toBe('rent');
    expect(ix.args.get('tip')).toEqual([7n]);
    expect(ix.args.get('delta')).toBe(-2n);
    expect(ix.args.get('route')).toEqual([new Map<string, unknown>([['pool', TO], ['side', new Map([['Ask', new Map()]])]])]);
    expect(ix.args.get('beneficiary')).toBe(FROM);
  });

  it('is undefined for another instruction, a trailing byte, short data, a bad option tag or bad UTF-8', () => {
    expect(decodeAnchorInstruction(idl, `00${withdrawData().slice(2)}`, accounts)).toBeUndefined();
    expect(decodeAnchorInstruction(idl, withdrawData('00'), accounts)).toBeUndefined();
    expect(decodeAnchorInstruction(idl, withdrawData().slice(0, -2), accounts)).toBeUndefined();
    expect(decodeAnchorInstruction(idl, withdrawData().replace(`${str('rent')}0107`, `${str('rent')}0207`), accounts)).toBeUndefined();
    expect(decodeAnchorInstruction(idl, withdrawData().replace(str('rent'), `${u32(1)}ff`), accounts)).toBeUndefined();
    expect(decodeAnchorInstruction(idl, 'xyz', accounts)).toBeUndefined();
  });
});

describe('nesting', () => {
  it('an IDL nested deeper than 64 levels is refused before the schema reads it (it would overflow the stack)', () => {
    const levels = 40_000; // about 400 kB
    const type = `${'{"vec":'.repeat(levels)}"u8"${'}'.repeat(levels)}`;
    expect(refusal(`{"instructions":[{"name":"x","accounts":[],"args":[{"name":"a","type":${type}}]}]}`)).toMatch(/deeper than 64 levels/);
  });
});

describe('work bound', () => {
  it('zero-sized items cannot make a few bytes cost millions of steps: a huge vector or array of them is undecodable', () => {
    const idl = parseAnchorIdl(
      JSON.stringify({
        instructions: [
          { name: 'many', discriminator: [1], accounts: [], args: [{ name: 'v', type: { vec: { defined: { name: 'Empty' } } } }] },
          { name: 'grid', discriminator: [2], accounts: [], args: [{ name: 'g', type: { array: [{ array: [{ defined: { name: 'Empty' } }, 1000] }, 1000] } }] },
          { name: 'few', discriminator: [3], accounts: [], args: [{ name: 'v', type: { vec: { defined: { name: 'Empty' } } } }] },
        ],
        types: [{ name: 'Empty', type: { kind: 'struct', fields: [] } }],
      }),
    );
    expect(decodeAnchorInstruction(idl, `01${u32(0xffffffff)}`, [])).toBeUndefined();
    expect(decodeAnchorInstruction(idl, '02', [])).toBeUndefined();
    expect(decodeAnchorInstruction(idl, `03${u32(3)}`, [])?.args.get('v')).toEqual([new Map(), new Map(), new Map()]);
  });
});
