/**
 * Statements a plugin makes beyond SQL and values: `defineStatement`'s `database`, where a top-level `batch` runs them
 * (the bound Model's), `defineStatementOfParts`, several sent as one Statement in one atomic D1 batch, and
 * `compiledStatement`, the read of a query the compiler made of a Relation.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, connect, NoDatabase, RecordNotUnique } from "../../src/index.js";
import { compiledStatement, databaseOfRelation, defineStatement, defineStatementOfParts, queryOfParts, type Relation, selectParts, type WriteMeta } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import { Note } from "../models/fixtures.js";

beforeEach(resetDatabase);

const insertNote = (id: string) => defineStatement<WriteMeta>({ sql: `INSERT INTO "notes" ("id", "body") VALUES (?1, 'b')`, params: [id], result: "meta" });

describe("defineStatement's database", () => {
  it("is where a top-level batch runs the Statement: the bound Model's, as for the kernel's own Statements", async () => {
    const { db, events, Note: BoundNote } = listen({ models: { Note } });
    const database = databaseOfRelation(BoundNote.all() as unknown as Relation);
    expect(database).toBe(db);
    const [changed] = await batch([defineStatement({ sql: `INSERT INTO "notes" ("id") VALUES ('n1')`, result: "meta", database })]);
    expect((changed as WriteMeta)["changes"]).toBe(1);
    expect(events.map((event) => event.sql)).toEqual([`INSERT INTO "notes" ("id") VALUES ('n1')`]);
    expect(await countRows("notes")).toBe(1);
  });

  it("left out, a Statement of no Model has no database to run on outside withDatabase", async () => {
    const error = await rejectionOf(batch([defineStatement({ sql: "SELECT 1 AS one" })]));
    expect(error).toBeInstanceOf(NoDatabase);
  });

  it("refuses what is no database, before anything is sent", () => {
    expect(() => defineStatement({ sql: "SELECT 1", database: {} as never })).toThrow(new TypeError("defineStatement: database takes a Database, not {}"));
    expect(() => defineStatement({ sql: "SELECT 1", database: "DB" as never })).toThrow(new TypeError(`defineStatement: database takes a Database, not "DB"`));
    expect(() => defineStatement({ sql: "SELECT 1", database: null as never })).toThrow(new TypeError("defineStatement: database takes a Database, not null"));
    expect(() => defineStatementOfParts({ parts: [insertNote("x")], database: env.DB as never })).toThrow(/^defineStatementOfParts: database takes a Database, not /);
  });
});

describe("defineStatementOfParts", () => {
  it("sends its parts in one round trip, read as one result: their meta summed", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    const both = defineStatementOfParts<unknown>({ parts: [insertNote("a"), insertNote("b")], result: "meta", read: (_rows, meta) => meta["changes"] });
    expect(await db.run(both)).toBe(2);
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(2);
    expect(both.toSql()).toEqual({ sql: `INSERT INTO "notes" ("id", "body") VALUES (?1, 'b');\nINSERT INTO "notes" ("id", "body") VALUES (?2, 'b')`, params: ["a", "b"] });
  });

  it("reads the rows of every part together by default, and joins a batch as its parts", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    const db = connect(binding);
    const rows = defineStatementOfParts({ parts: [defineStatement({ sql: "SELECT 1 AS n" }), defineStatement({ sql: "SELECT 2 AS n" })] });
    const [read, inserted] = await db.batch([rows, insertNote("c")]);
    expect(read).toEqual([{ n: 1 }, { n: 2 }]);
    expect((inserted as WriteMeta)["changes"]).toBe(1);
    expect(roundTrips).toEqual([["SELECT 1 AS n", "SELECT 2 AS n", `INSERT INTO "notes" ("id", "body") VALUES (?1, 'b')`]]);
  });

  it("is all or nothing: a part the database refuses leaves every part unwritten", async () => {
    const db = connect(env.DB);
    await db.run(insertNote("taken"));
    const error = await rejectionOf(db.run(defineStatementOfParts({ parts: [insertNote("fresh"), insertNote("taken")] })));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(await countRows("notes")).toBe(1);
  });

  it("refuses parts it cannot send, and SQL or values of its own beside them, naming the entry", () => {
    const one = insertNote("x");
    const nested = defineStatementOfParts({ parts: [one] });
    const expected = "a non-empty list of Statements, none made of parts";
    const refusal = (shown: string) => new TypeError(`defineStatementOfParts: parts takes ${expected}, not ${shown}`);
    expect(() => defineStatementOfParts({ parts: [] })).toThrow(refusal("[]"));
    expect(() => defineStatementOfParts({ parts: ["SELECT 1"] as never })).toThrow(refusal(`["SELECT 1"]`));
    expect(() => defineStatementOfParts({ parts: [nested] })).toThrow(refusal("[[object Statement]]"));
    expect(() => defineStatementOfParts({ parts: "SELECT 1" as never })).toThrow(refusal(`"SELECT 1"`));
    expect(() => defineStatementOfParts({ parts: [one], sql: "SELECT 1" } as never)).toThrow(
      new TypeError("defineStatementOfParts: sql is each part's own; give it to the parts"),
    );
    expect(() => defineStatementOfParts({ parts: [one], expectedChanges: 1 } as never)).toThrow(
      new TypeError("defineStatementOfParts: expectedChanges is each part's own; give it to the parts"),
    );
  });
});

describe("compiledStatement", () => {
  it("reads the rows of a Relation's compiled SELECT with the plugin's reader", async () => {
    await Note.create({ id: "n1", body: "first" });
    await Note.create({ id: "n2", body: "second" });
    const relation = Note.where({ id: "n2" }) as unknown as Relation;
    const query = queryOfParts(selectParts(relation.description, relation.model));
    const statement = compiledStatement(query, relation.model, (rows) => rows.map((row) => row["body"]));
    expect(statement.toSql()).toEqual(relation.toSql());
    expect(await relation.run(statement)).toEqual(["second"]);
  });
});
