import { expectTypeOf } from "vitest";
import { belongsTo, hasMany } from "../../src/index.js";
import { ApplicationRecord } from "../models/fixtures.js";

class Remark extends ApplicationRecord("posts") {
  writer = belongsTo(Writer, { foreignKey: "userId" });
}

class Writer extends ApplicationRecord("users") {
  remarks = hasMany(Remark, { foreignKey: "userId" });
}

declare const writer: Writer;
declare const remark: Remark;

writer.asJson();
writer.asJson({ include: "remarks" });
writer.asJson({ include: ["remarks"] });
writer.asJson({ include: [{ remarks: ["writer"] }] });
writer.asJson({ include: { remarks: { writer: "remarks" } } });
remark.asJson({ include: ["writer", { writer: ["remarks"] }] });

// @ts-expect-error an attribute is not an association
writer.asJson({ include: ["name"] });
// @ts-expect-error a misspelt association name
writer.asJson({ include: "remark" });
// @ts-expect-error nested names are checked against the association's records (writer is on Remark, not Writer)
writer.asJson({ include: { remarks: ["remarks"] } });

const json = remark.asJson({ include: "writer" });
expectTypeOf(json.title).toEqualTypeOf<string | undefined>();
expectTypeOf(json.createdAt).toEqualTypeOf<string | undefined>();
expectTypeOf(json["writer"]).toEqualTypeOf<unknown>();
