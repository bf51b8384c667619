/** The character code of each hex digit. */
const HEX_DIGITS = Array.from({ length: 16 }, (_, digit) => digit.toString(16).charCodeAt(0));
const DASH = "-".charCodeAt(0);
// The id's 36 character codes, reused: one flat string is made from them, where appending each digit to a string
// would make a string per step (about twice the time of the whole id).
const codes: number[] = new Array(36).fill(0);

let lastMilliseconds = -1;
let sequence = 0;

// Random bytes are drawn in blocks: one call to the platform per 256 ids instead of one per id. Each id is made in
// place in its 16 bytes of the block, which makes no view of them per id.
const POOL_SIZE = 16 * 256;
let pool = new Uint8Array(0);
let poolOffset = POOL_SIZE;

/** Where the next 16 random bytes start in `pool`. */
function randomBytesAt(): number {
  if (poolOffset >= POOL_SIZE) {
    pool = crypto.getRandomValues(new Uint8Array(POOL_SIZE));
    poolOffset = 0;
  }
  poolOffset += 16;
  return poolOffset - 16;
}

/**
 * A time-ordered UUID (RFC 9562, version 7): 48 bits of Unix milliseconds, then a 12-bit counter that keeps ids
 * made in the same millisecond in creation order, then 62 random bits. Sorting by id sorts by creation.
 */
export function uuidV7(): string {
  let milliseconds = Date.now();
  if (milliseconds <= lastMilliseconds) {
    sequence++;
    // The counter ran out within one millisecond: borrow the next millisecond so order is kept.
    if (sequence > 0xfff) {
      lastMilliseconds++;
      sequence = 0;
    }
    milliseconds = lastMilliseconds;
  } else {
    lastMilliseconds = milliseconds;
    sequence = 0;
  }
  const at = randomBytesAt();
  for (let index = 5; index >= 0; index--) {
    pool[at + index] = milliseconds % 256;
    milliseconds = Math.floor(milliseconds / 256);
  }
  pool[at + 6] = 0x70 | (sequence >> 8);
  pool[at + 7] = sequence & 0xff;
  pool[at + 8] = 0x80 | (pool[at + 8]! & 0x3f);
  let code = 0;
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) codes[code++] = DASH;
    const byte = pool[at + index]!;
    codes[code++] = HEX_DIGITS[byte >> 4]!;
    codes[code++] = HEX_DIGITS[byte & 15]!;
  }
  return String.fromCharCode(...codes);
}
