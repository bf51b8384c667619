/** Whether a value is bytes, which D1 stores as a blob: an `ArrayBuffer` or a view of one (a `Uint8Array`, ...). */
export function isBlob(value: unknown): value is ArrayBuffer | ArrayBufferView {
  return value instanceof ArrayBuffer || ArrayBuffer.isView(value);
}

/** The bytes of a blob, whichever view holds them. */
function bytesOf(blob: ArrayBuffer | ArrayBufferView): Uint8Array {
  return ArrayBuffer.isView(blob) ? new Uint8Array(blob.buffer, blob.byteOffset, blob.byteLength) : new Uint8Array(blob);
}

/** The hex text of a blob's bytes (`00ff`), which SQLite's `unhex` reads back. */
export function blobHex(blob: ArrayBuffer | ArrayBufferView): string {
  return Array.from(bytesOf(blob), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A blob as JSON: its hex in an array of one (`["00ff"]`), a JSON type no other stored value takes, so that
 * `blobAwareJson` reads it back as the same blob and everything else as it is.
 */
export function blobJson(blob: ArrayBuffer | ArrayBufferView): string {
  return `["${blobHex(blob)}"]`;
}

/**
 * SQL reading a JSON value that may be a blob written by `blobJson`: `type` is the SQL of its JSON type, `value` of
 * the value, and `first` of its first element.
 */
export function blobAwareJson(type: string, value: string, first: string): string {
  return `CASE ${type} WHEN 'array' THEN unhex(${first}) ELSE ${value} END`;
}

/**
 * A stored value as memory can compare it as SQLite does: a blob as its `blobJson` text, so that equal bytes are
 * equal whichever view holds them; anything else as it is. For keys of a `Map` or a `Set`.
 */
export function comparableStored(stored: unknown): unknown {
  return isBlob(stored) ? blobJson(stored) : stored;
}

/** Whether two stored values are equal as SQLite compares them: blobs by their bytes, anything else as it is. */
export function sameStored(a: unknown, b: unknown): boolean {
  // Most values are no blob: one comparison decides, on the path every save's change check takes.
  return a === b || (isBlob(a) && isBlob(b) && blobJson(a) === blobJson(b));
}
