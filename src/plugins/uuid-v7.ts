const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

let lastMilliseconds = -1;
let sequence = 0;

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
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  for (let index = 5; index >= 0; index--) {
    bytes[index] = milliseconds % 256;
    milliseconds = Math.floor(milliseconds / 256);
  }
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  let text = "";
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text += "-";
    text += HEX[bytes[index]!];
  }
  return text;
}
