/**
 * English pluralization by the rules of Rails' ActiveSupport inflector, quirks included
 * (`human` gives `humen`, `leaf` gives `leafs`), so that table names match what Rails users expect.
 * There is deliberately no way to add rules: a Model with an unusual name sets `tableName`.
 */

type Rule = readonly [pattern: RegExp, replacement: string];

// Listed most specific last, as Rails defines them; matching tries the list from the end.
const RULES: Rule[] = [
  [/$/, "s"],
  [/s$/i, "s"],
  [/^(ax|test)is$/i, "$1es"],
  [/(octop|vir)us$/i, "$1i"],
  [/(octop|vir)i$/i, "$1i"],
  [/(alias|status)$/i, "$1es"],
  [/(bu)s$/i, "$1ses"],
  [/(buffal|tomat)o$/i, "$1oes"],
  [/([ti])um$/i, "$1a"],
  [/([ti])a$/i, "$1a"],
  [/sis$/i, "ses"],
  [/(?:([^f])fe|([lr])f)$/i, "$1$2ves"],
  [/(hive)$/i, "$1s"],
  [/([^aeiouy]|qu)y$/i, "$1ies"],
  [/(x|ch|ss|sh)$/i, "$1es"],
  [/(matr|vert|ind)(?:ix|ex)$/i, "$1ices"],
  [/^(m|l)ouse$/i, "$1ice"],
  [/^(m|l)ice$/i, "$1ice"],
  [/^(ox)$/i, "$1en"],
  [/^(oxen)$/i, "$1"],
  [/(quiz)$/i, "$1zes"],
  // Irregulars, as Rails' `irregular`: the singular and the plural both give the plural, keeping the first letter's case.
  [/(p)erson$/i, "$1eople"],
  [/(p)eople$/i, "$1eople"],
  [/(m)an$/i, "$1en"],
  [/(m)en$/i, "$1en"],
  [/(c)hild$/i, "$1hildren"],
  [/(c)hildren$/i, "$1hildren"],
  [/(s)ex$/i, "$1exes"],
  [/(s)exes$/i, "$1exes"],
  [/(m)ove$/i, "$1oves"],
  [/(m)oves$/i, "$1oves"],
  [/(z)ombie$/i, "$1ombies"],
  [/(z)ombies$/i, "$1ombies"],
];

// As Rails' `\bsheep\Z`: "_" is a word character, so "blog_sheep" is not uncountable and becomes "blog_sheeps".
const UNCOUNTABLE = /\b(?:equipment|information|rice|money|species|series|fish|sheep|jeans|police)$/i;

/** The plural of an English word or snake_case phrase (only the last word changes). */
export function pluralize(word: string): string {
  if (word === "" || UNCOUNTABLE.test(word)) return word;
  for (let index = RULES.length - 1; index >= 0; index--) {
    const [pattern, replacement] = RULES[index]!;
    if (pattern.test(word)) return word.replace(pattern, replacement);
  }
  return word;
}
