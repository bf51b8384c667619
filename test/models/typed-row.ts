import { Model } from "../../src/index.js";

/** A Model with one attribute of each type, on `typed_rows` (migration 0031); `code` is unique, for upserts. */
export class TypedRow extends Model({
  id: "string",
  code: "string",
  textValue: "string",
  integerValue: "integer",
  realValue: "real",
  booleanValue: "boolean",
  datetimeValue: "datetime",
  jsonValue: "json",
}) {
  static override binding = "DB";
  static override tableName = "typed_rows";
}

/** The attribute of `TypedRow` that holds each attribute type. */
export const TYPED_ATTRIBUTE = {
  string: "textValue",
  integer: "integerValue",
  real: "realValue",
  boolean: "booleanValue",
  datetime: "datetimeValue",
  json: "jsonValue",
} as const;
