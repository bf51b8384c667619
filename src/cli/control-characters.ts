/**
 * Control characters of the user's input (a newline typed inside quotes, a tab, an escape) shown as backslash
 * escapes, so that text quoting an argument stays on one line and cannot drive the terminal.
 */

// The characters below the space, and DEL: none prints as itself.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

const NAMED_ESCAPES: Readonly<Record<string, string>> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/** Whether a text holds a control character. */
export function hasControlCharacters(text: string): boolean {
  return new RegExp(CONTROL_CHARACTERS.source).test(text);
}

/** The text with each control character as `\n`, `\r`, `\t` or `\xHH` (the escapes of C and of bash's `$'...'`). */
export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (char) => NAMED_ESCAPES[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
