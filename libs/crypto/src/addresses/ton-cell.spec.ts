/** Tests for the minimal TON cell builder: representation hash and depth against @ton/core. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bytesToHex } from '@noble/hashes/utils.js';
import { beginCell as tonBeginCell, type Cell } from '@ton/core';
import { MAX_CELL_BITS, MAX_CELL_REFS, beginCell, type TCellRef } from './ton-cell.js';

interface TNode {
  bits: boolean[];
  children: TNode[];
}

const bitsArb = fc.array(fc.boolean(), { maxLength: MAX_CELL_BITS });
const nodeArb = (depth: number): fc.Arbitrary<TNode> =>
  fc.record({ bits: bitsArb, children: depth === 0 ? fc.constant([]) : fc.array(nodeArb(depth - 1), { maxLength: MAX_CELL_REFS }) });

function ours(node: TNode): TCellRef {
  const builder = beginCell();
  for (const bit of node.bits) builder.storeBit(bit);
  for (const child of node.children) builder.storeRef(ours(child));
  return builder.end();
}

function theirs(node: TNode): Cell {
  const builder = tonBeginCell();
  for (const bit of node.bits) builder.storeBit(bit);
  for (const child of node.children) builder.storeRef(theirs(child));
  return builder.endCell();
}

const summary = (ref: TCellRef) => ({ hash: bytesToHex(ref.hash), depth: ref.depth });
const summaryOf = (cell: Cell) => ({ hash: cell.hash().toString('hex'), depth: cell.depth() });

describe('CellBuilder', () => {
  it('hashes the empty cell to its well-known hash', () => {
    expect(summary(beginCell().end())).toEqual({
      hash: '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      depth: 0,
    });
  });

  it('agrees with @ton/core on hash and depth for random trees of cells (any bit length, 0-4 refs)', () => {
    fc.assert(
      fc.property(nodeArb(3), (node) => {
        expect(summary(ours(node))).toEqual(summaryOf(theirs(node)));
      }),
      { numRuns: 50 },
    );
  });

  it('writes unsigned integers and unaligned bytes as @ton/core does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 1, max: 256 }).chain((bits) => fc.tuple(fc.constant(bits), fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }))),
        fc.uint8Array({ maxLength: 64 }),
        (pad, [bits, value], bytes) => {
          const mine = beginCell().storeUint(0, pad).storeUint(value, bits).storeBytes(bytes).end();
          const ref = tonBeginCell().storeUint(0, pad).storeUint(value, bits).storeBuffer(Buffer.from(bytes)).endCell();
          expect(summary(mine)).toEqual(summaryOf(ref));
        },
      ),
    );
  });

  it('refuses overflowing bits, a fifth reference, and values wider than their field', () => {
    const full = beginCell().storeUint(0, MAX_CELL_BITS);
    expect(() => full.storeBit(0)).toThrow(RangeError);
    const leaf = beginCell().end();
    const fourRefs = beginCell().storeRef(leaf).storeRef(leaf).storeRef(leaf).storeRef(leaf);
    expect(() => fourRefs.storeRef(leaf)).toThrow(/at most 4 references/);
    expect(() => beginCell().storeUint(256, 8)).toThrow(/does not fit in 8 unsigned bits/);
    expect(() => beginCell().storeUint(-1, 8)).toThrow(RangeError);
    expect(() => beginCell().storeRef({ hash: new Uint8Array(31), depth: 0 })).toThrow(/child.hash/);
  });
});
