/**
 * Signed D1 bookmarks: the form in which a bookmark travels to a client and back. D1 takes any text as a bookmark
 * and keeps the newest it has seen, so a forged one far in the future (`ffffffff-ffffffff-...`) would be sent to
 * D1, which a replica cannot catch up with, and come back from `getBookmark()` on every later response. A bookmark
 * is therefore handed out with an HMAC-SHA256 of it under the app's secret, and one whose signature does not
 * verify is never given to D1: only bookmarks D1 issued to this app come back.
 */

/** The shortest secret accepted: 32 characters, as `openssl rand -hex 16` gives. */
export const MIN_SECRET_LENGTH = 32;

// What D1 issues: hex digits in dash-separated groups (8-8-8-32 today), kept loose in the group sizes in case D1
// changes them; the length bound keeps a header or cookie of a client's choosing from costing more than a glance.
const BOOKMARK = /^[0-9a-f]+(?:-[0-9a-f]+){1,7}$/i;
const MAX_BOOKMARK_LENGTH = 128;
// HMAC-SHA256 in base64url without padding: 43 characters for 32 bytes, so the last one carries 2 unused bits, which
// must be zero. Without that, four texts would decode to each signature, and an altered one would verify.
const SIGNATURE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

const encoder = new TextEncoder();

function hmacKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
}

function base64url(bytes: ArrayBuffer): string {
  return btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
}

/** Whether a value has the shape of a bookmark D1 issues (and fits the length a client may send). */
export function isBookmarkShaped(value: string): boolean {
  return value.length <= MAX_BOOKMARK_LENGTH && BOOKMARK.test(value);
}

/** The bookmark with its signature under `secret`, as it travels: `<bookmark>.<signature>`. */
export async function signBookmark(bookmark: string, secret: string): Promise<string> {
  const signature = await crypto.subtle.sign("HMAC", await hmacKey(secret), encoder.encode(bookmark));
  return `${bookmark}.${base64url(signature)}`;
}

/** The bookmark a signed value carries when its signature under `secret` verifies, else undefined. */
export async function verifiedBookmark(signed: string, secret: string): Promise<string | undefined> {
  const separator = signed.lastIndexOf(".");
  const bookmark = signed.slice(0, separator);
  const signature = signed.slice(separator + 1);
  if (separator < 0 || !isBookmarkShaped(bookmark) || !SIGNATURE.test(signature)) return undefined;
  const verified = await crypto.subtle.verify("HMAC", await hmacKey(secret), fromBase64url(signature), encoder.encode(bookmark));
  return verified ? bookmark : undefined;
}
