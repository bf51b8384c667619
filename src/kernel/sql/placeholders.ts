/**
 * The placeholder of the `number`th bound parameter (from 1). Always numbered, `?N`, so that it reads its own value
 * wherever it lands in the SQL text: a plain `?` reads the next value in text order, which ties every value to the
 * order parts are joined in, and a hook that puts a term before values bound earlier would shift them all.
 */
export function placeholder(number: number): string {
  return `?${number}`;
}

/** A string, a quoted name or a comment (where a `?N` is text, not a placeholder), or a placeholder's number. */
const TOKENS = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?\*\/|\?(\d+)/g;

/** The SQL with each string, quoted name and comment made a space: its keywords, names and placeholders. */
export function withoutTexts(sql: string): string {
  return sql.replace(TOKENS, (token, number: string | undefined) => (number === undefined ? " " : token));
}

/**
 * The SQL with each numbered placeholder moved `offset` further, for showing a statement after others as one list
 * of values (`?1` of the second, after one of three values, shows as `?4`). Strings, quoted names and comments are
 * left as they are.
 */
export function shiftPlaceholders(sql: string, offset: number): string {
  if (offset === 0) return sql;
  return sql.replace(TOKENS, (token, number: string | undefined) => (number === undefined ? token : placeholder(Number(number) + offset)));
}

/**
 * The SQL cut at each numbered placeholder: the texts between them and each one's number, in order. Strings, quoted
 * names and comments are left whole.
 */
export function splitAtPlaceholders(sql: string): { texts: string[]; numbers: number[] } {
  const texts: string[] = [];
  const numbers: number[] = [];
  let from = 0;
  for (const match of sql.matchAll(TOKENS)) {
    if (match[1] === undefined) continue;
    texts.push(sql.slice(from, match.index));
    numbers.push(Number(match[1]));
    from = match.index! + match[0].length;
  }
  texts.push(sql.slice(from));
  return { texts, numbers };
}
