/**
 * The two directions between generator column types and SQL: `name:boolean` is written as a BOOLEAN column,
 * and a BOOLEAN column is read back as a `boolean` attribute.
 */

/** Attribute types of recordflare (SPEC "Attribute declarations and types"). */
export type AttributeTypeName = "string" | "integer" | "real" | "boolean" | "datetime" | "json";

/** Column types the generators accept after `name:`. */
export type GeneratorType = AttributeTypeName | "references";

/** The declared SQL type each generator type writes (a `json` column is TEXT with a `json_valid` CHECK). */
export const SQL_TYPES: Readonly<Record<AttributeTypeName, string>> = {
  string: "TEXT",
  integer: "INTEGER",
  real: "REAL",
  boolean: "BOOLEAN",
  datetime: "DATETIME",
  json: "TEXT",
};

/** Every type accepted in column syntax, in the order error messages list them. */
export const GENERATOR_TYPES: readonly GeneratorType[] = ["string", "integer", "real", "boolean", "datetime", "json", "references"];

/** Whether a word is a generator column type. */
export function isGeneratorType(word: string): word is GeneratorType {
  return (GENERATOR_TYPES as readonly string[]).includes(word);
}

// Declared types recognised by name before SQLite's affinity rules apply.
const NAMED_TYPES: Readonly<Record<string, AttributeTypeName>> = {
  BOOLEAN: "boolean",
  BOOL: "boolean",
  DATETIME: "datetime",
  TIMESTAMP: "datetime",
  DATE: "datetime",
  JSON: "json",
};

/**
 * The attribute type of a column, from its declared type: the names recognised above, then SQLite's affinity
 * rules (https://sqlite.org/datatype3.html#determination_of_column_affinity): INT gives `integer`; CHAR, CLOB or
 * TEXT give `string` (or `json` when the column has a `json_valid` CHECK); REAL, FLOA or DOUB give `real`;
 * any other name has NUMERIC affinity and gives `real`. An empty type or BLOB gives undefined: such a column
 * holds bytes, which no attribute type reads.
 */
export function attributeTypeOf(declaredType: string, jsonChecked: boolean): AttributeTypeName | undefined {
  const upper = declaredType.trim().toUpperCase();
  const name = upper.replace(/\s*\(.*$/, "");
  const named = NAMED_TYPES[name];
  if (named) return named;
  if (upper.includes("INT")) return "integer";
  if (upper.includes("CHAR") || upper.includes("CLOB") || upper.includes("TEXT")) return jsonChecked ? "json" : "string";
  if (upper === "" || upper.includes("BLOB")) return undefined;
  return "real";
}
