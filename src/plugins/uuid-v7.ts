const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

let lastMilliseconds = -1;
let sequence = 0;

// Random bytes are drawn in blocks: one call to the platform per 512 ids instead of one per id.
const RANDOM_BYTES_PER_ID = 8;
const POOL_SIZE = RANDOM_BYTES_PER_ID * 512;
let pool = new Uint8Array(0);
let poolOffset = POOL_SIZE;

/** Where the next id's random bytes start in the pool. */
function takeRandomBytes(): number {
  if (poolOffset >= POOL_SIZE) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_SIZE));
    poolOffset = 0;
  }
  poolOffset += RANDOM_BYTES_PER_ID;
  return poolOffset - RANDOM_BYTES_PER_ID;
}

/** The next millisecond and counter: ids made in the same millisecond count up, so that they keep creation order. */
function nextInstant(): { milliseconds: number; sequence: number } {
  const now = Date.now();
  if (now > lastMilliseconds) {
    lastMilliseconds = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    // The counter ran out within one millisecond: borrow the next millisecond so order is kept.
    lastMilliseconds++;
    sequence = 0;
  }
  return { milliseconds: lastMilliseconds, sequence };
}

/**
 * A time-ordered UUID (RFC 9562, version 7): 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids
 * made in the same millisecond in creation order, then 62 random bits. Sorting by id sorts by creation.
 */
export function uuidV7(): string {
  const { milliseconds, sequence } = nextInstant();
  const time = milliseconds.toString(16).padStart(12, "0");
  const counter = sequence.toString(16).padStart(3, "0");
  const at = takeRandomBytes();
  const random = (index: number) => HEX[pool[at + index]!]!;
  const variant = HEX[0x80 | (pool[at]! & 0x3f)]!;
  return `${time.slice(0, 8)}-${time.slice(8)}-7${counter}-${variant}${random(1)}-${random(2)}${random(3)}${random(4)}${random(5)}${random(6)}${random(7)}`;
}
