/**
 * Names and values as the generators write them into TypeScript. Table, column and index names come from
 * migrations, and a hand-written one may give a name anything SQLite takes: a newline, a quote, `*` + `/`. Written
 * raw, a newline would end the comment it is in and the rest would run when the app imports the file; so a name
 * is only ever written as a string literal, or in a comment as plain text or as an escaped literal.
 */

// What JSON.stringify leaves raw but ends a line for JavaScript tools older than ES2019.
const LINE_SEPARATORS = /[\u2028\u2029]/g;

// Text a comment may hold as it is: letters, digits and the punctuation of declared types (`DECIMAL(10,2)`).
const PLAIN_TEXT = /^[A-Za-z0-9_$ (),.+-]*$/;

/**
 * A JSON value (a string, number, boolean, null, array or object) as a TypeScript literal: JSON, with U+2028 and
 * U+2029 escaped too, so the literal holds on one line whatever the text.
 */
export function typeScriptLiteral(value: unknown): string {
  return JSON.stringify(value).replace(LINE_SEPARATORS, (separator) => `\\u${separator.charCodeAt(0).toString(16)}`);
}

/**
 * Text for a `//` comment: as it is when plain, else as its string literal with `*` + `/` written `*\/`, so that it
 * carries no line terminator and ends no comment.
 */
export function commentText(text: string): string {
  return PLAIN_TEXT.test(text) ? text : typeScriptLiteral(text).replaceAll("*/", "*\\/");
}
