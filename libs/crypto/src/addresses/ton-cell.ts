/**
 * The smallest part of TON's cell model that address derivation needs: building ordinary cells bit
 * by bit and computing their representation hash (tvm.pdf §3.1.4-3.1.5, "standard cell
 * representation"). A TON contract address is that hash of the contract's StateInit cell.
 *
 * A parent's hash covers only its children's *hashes and depths*, never their bits, so a child is
 * carried around as a `TCellRef` ({hash, depth}). That lets the wallet encoders embed the wallet
 * code as a precomputed reference instead of shipping a bag-of-cells parser.
 *
 * Only ordinary cells of level 0 are supported: exotic cells (pruned branches, library cells,
 * Merkle proofs) never occur in a wallet's StateInit, so refusing them keeps this small.
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** What a parent cell needs to know about a child: its representation hash and its depth. */
export interface TCellRef {
  /** sha256 of the cell's standard representation (32 bytes). */
  readonly hash: Uint8Array;
  /** 0 for a leaf, otherwise 1 + the deepest child's depth. */
  readonly depth: number;
}

/** A cell holds at most 1023 data bits and 4 references. */
export const MAX_CELL_BITS = 1023;
export const MAX_CELL_REFS = 4;
// Depth is serialised in two bytes; TVM limits it far lower, but this is the format's hard bound.
const MAX_CELL_DEPTH = 0xffff;

/**
 * Builds one ordinary cell. Bits are written most-significant first, as TL-B serialises them.
 * @throws RangeError when the cell would overflow 1023 bits or 4 references, or a value does not
 *   fit its width.
 */
export class CellBuilder {
  // 128 bytes = 1024 bits: room for the 1023 data bits.
  private readonly data = new Uint8Array(128);
  private bitLength = 0;
  private readonly refs: TCellRef[] = [];

  /** Appends one bit. */
  storeBit(bit: boolean | 0 | 1): this {
    this.reserve(1);
    if (bit) this.data[this.bitLength >> 3]! |= 0x80 >> (this.bitLength & 7);
    this.bitLength++;
    return this;
  }

  /**
   * Appends an unsigned integer in `bits` bits, big-endian.
   * @throws RangeError if `value` is negative or needs more than `bits` bits.
   */
  storeUint(value: number | bigint, bits: number): this {
    if (!Number.isInteger(bits) || bits < 0 || bits > MAX_CELL_BITS) {
      throw new RangeError(`bits must be an integer in [0, ${MAX_CELL_BITS}], got ${bits}`);
    }
    const v = BigInt(value);
    if (v < 0n || v >> BigInt(bits) !== 0n) throw new RangeError(`value ${v} does not fit in ${bits} unsigned bits`);
    this.reserve(bits);
    for (let i = bits - 1; i >= 0; i--) this.storeBit(((v >> BigInt(i)) & 1n) === 1n);
    return this;
  }

  /** Appends whole bytes (not necessarily byte-aligned in the cell). */
  storeBytes(bytes: Uint8Array): this {
    this.reserve(bytes.length * 8);
    for (const byte of bytes) this.storeUint(byte, 8);
    return this;
  }

  /**
   * Appends a reference to a child cell.
   * @throws RangeError on a fifth reference or a malformed child.
   */
  storeRef(child: TCellRef): this {
    if (this.refs.length >= MAX_CELL_REFS) throw new RangeError(`a cell holds at most ${MAX_CELL_REFS} references`);
    if (!(child.hash instanceof Uint8Array) || child.hash.length !== 32) throw new RangeError('child.hash must be 32 bytes');
    if (!Number.isInteger(child.depth) || child.depth < 0 || child.depth >= MAX_CELL_DEPTH) {
      throw new RangeError(`child.depth must be an integer in [0, ${MAX_CELL_DEPTH - 1}], got ${child.depth}`);
    }
    this.refs.push(child);
    return this;
  }

  /** Finishes the cell: its representation hash and depth. */
  end(): TCellRef {
    const depth = this.refs.reduce((max, ref) => Math.max(max, ref.depth + 1), 0);
    return { hash: sha256(this.representation()), depth };
  }

  /**
   * The standard representation of an ordinary level-0 cell:
   * d1 ‖ d2 ‖ data (with completion tag) ‖ children's depths (2 bytes BE each) ‖ children's hashes.
   */
  private representation(): Uint8Array {
    const fullBytes = this.bitLength >> 3;
    const dataBytes = Math.ceil(this.bitLength / 8);
    const out = new Uint8Array(2 + dataBytes + this.refs.length * (2 + 32));
    // d1 = refs + 8·exotic + 32·level; exotic and level are both 0 here.
    out[0] = this.refs.length;
    // d2 = ⌊b/8⌋ + ⌈b/8⌉: odd exactly when the last byte is partial (and so carries a tag).
    out[1] = fullBytes + dataBytes;
    out.set(this.data.subarray(0, dataBytes), 2);
    // Completion tag: a 1 bit right after the data, so trailing zero bits stay unambiguous.
    if (this.bitLength & 7) out[2 + fullBytes]! |= 0x80 >> (this.bitLength & 7);
    let offset = 2 + dataBytes;
    for (const ref of this.refs) {
      out[offset++] = ref.depth >> 8;
      out[offset++] = ref.depth & 0xff;
    }
    for (const ref of this.refs) {
      out.set(ref.hash, offset);
      offset += 32;
    }
    return out;
  }

  private reserve(bits: number): void {
    if (this.bitLength + bits > MAX_CELL_BITS) {
      throw new RangeError(`a cell holds at most ${MAX_CELL_BITS} bits (has ${this.bitLength}, adding ${bits})`);
    }
  }
}

/** Starts a new cell. */
export function beginCell(): CellBuilder {
  return new CellBuilder();
}
