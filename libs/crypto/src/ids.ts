/**
 * Identifier generation: UUIDv7 (RFC 9562 §5.7), monotonic within the process.
 *
 * Ids double as sort keys (activity lists are ordered by id), so two ids created in the same
 * millisecond must still compare strictly increasing as strings. RFC 9562 §6.2 "Method 1": the 12-bit
 * `rand_a` field is a counter, seeded randomly at each new millisecond with its top bit clear (so at
 * least 2048 ids fit in a millisecond before it overflows); on overflow the timestamp is advanced by
 * one millisecond rather than waiting. If the wall clock goes backwards, the last timestamp is kept,
 * which keeps the order and costs at most a little timestamp drift.
 */
import { randomFillSync } from 'node:crypto';

const RAND_POOL_SIZE = 4096;
const randPool = new Uint8Array(RAND_POOL_SIZE);
let randOffset = RAND_POOL_SIZE;

// Pooling the CSPRNG avoids one syscall-sized call per id; 8 bytes per id are consumed.
function randomBytes8(): Uint8Array {
  if (randOffset + 8 > RAND_POOL_SIZE) {
    randomFillSync(randPool);
    randOffset = 0;
  }
  const out = randPool.subarray(randOffset, randOffset + 8);
  randOffset += 8;
  return out;
}

let lastMs = -1;
let counter = 0;

function seedCounter(rand: Uint8Array): number {
  // 11 random bits: top bit of the 12-bit field stays 0, leaving room to count up.
  return ((rand[0]! << 8) | rand[1]!) & 0x7ff;
}

/**
 * A new UUIDv7 as a lowercase hyphenated string, strictly greater (as a string) than every id
 * previously returned by this process.
 */
export function newId(): string {
  const rand = randomBytes8();
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = seedCounter(rand);
  } else {
    counter += 1;
    if (counter > 0xfff) {
      lastMs += 1;
      counter = seedCounter(rand);
    }
  }

  const bytes = new Uint8Array(16);
  // 48-bit big-endian millisecond timestamp; split because bit operators are 32-bit.
  const high = Math.floor(lastMs / 0x1_0000_0000);
  const low = lastMs >>> 0;
  bytes[0] = (high >>> 8) & 0xff;
  bytes[1] = high & 0xff;
  bytes[2] = (low >>> 24) & 0xff;
  bytes[3] = (low >>> 16) & 0xff;
  bytes[4] = (low >>> 8) & 0xff;
  bytes[5] = low & 0xff;
  bytes[6] = 0x70 | (counter >>> 8); // version 7 + top 4 bits of the counter
  bytes[7] = counter & 0xff;
  // rand_b: 62 random bits behind the RFC 4122 variant `10`. rand[0..1] seeded the counter above,
  // so draw the remaining bytes fresh to keep rand_b independent of it.
  const tail = randomBytes8();
  bytes[8] = 0x80 | (tail[0]! & 0x3f);
  bytes.set(tail.subarray(1, 8), 9);

  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The creation time a UUIDv7 carries (its first 48 bits, Unix milliseconds). Records that sort by
 * id take their `createdAt` from here, so the two orders can never disagree.
 * @throws Error when `id` is not a UUIDv7.
 */
export function idTimestamp(id: string): Date {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id)) throw new Error('not a UUIDv7');
  return new Date(parseInt(id.slice(0, 8) + id.slice(9, 13), 16));
}
