import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, Model, RecordInvalid } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Article, Author, Book, Writer } from "../models/association-fixtures.js";

/** A review whose writer may be absent. */
class Note extends Model({ id: { type: "string", null: false, generateId: true }, userId: "string", body: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "reviews";
  user = belongsTo(Writer, { optional: true });
}

/** The same table with a required writer (the default). */
class SignedNote extends Model({ id: { type: "string", null: false, generateId: true }, userId: "string", body: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "reviews";
  user = belongsTo(Writer);
}

beforeEach(resetDatabase);

describe("belongsTo is required by default (Rails 5+)", () => {
  it("a null foreign key fails validation with 'must exist', without a query, and nothing is written", async () => {
    const { db, events } = listen();
    const note = db.model(SignedNote).build({ body: "hello" });
    expect(await note.save()).toBe(false);
    expect(note.errors.fullMessages()).toEqual(["User must exist"]);
    expect(note.errors.on("user")).toEqual([{ attribute: "user", type: "required", message: "must exist" }]);
    await expect(note.saveOrThrow()).rejects.toThrow(RecordInvalid);
    expect(events).toEqual([]);
  });

  it("before: a NOT NULL foreign key reached D1 as a constraint error; now it is a validation error", async () => {
    const article = await Article.create({ title: "Orphan" } as never);
    expect(article.isPersisted()).toBe(false);
    expect(article.errors.fullMessages()).toEqual(["User must exist", "Author must exist"]);
  });

  it("passes with a key, with a parent assigned by set(), and for a child built through its parent", async () => {
    const writer = await Writer.create({ name: "Ada" });
    expect((await SignedNote.create({ body: "keyed", userId: writer.id })).isPersisted()).toBe(true);
    const assigned = SignedNote.build({ body: "assigned" });
    assigned.user.set(Writer.build({ name: "Grace" }));
    expect(await assigned.save()).toBe(true);

    // Integer keys: the children learn their owner's key only once it is written.
    const author = Author.build({ name: "Le Guin" });
    author.books().build({ title: "The Dispossessed" });
    expect(await author.save()).toBe(true);
    expect(await Book.where({ authorId: author.id }).count()).toBe(1);
  });

  it("optional: true allows a null foreign key", async () => {
    expect((await Note.create({ body: "anonymous" })).isPersisted()).toBe(true);
  });

  it("checks a persisted record only when its key changes, so a partial select without the key still saves", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const note = await SignedNote.create({ body: "keyed", userId: writer.id });
    const partial = await SignedNote.select("id", "body").find(note.id);
    partial.body = "edited";
    expect(await partial.save()).toBe(true);
    const loaded = await SignedNote.find(note.id);
    loaded.userId = null;
    expect(await loaded.save()).toBe(false);
    expect(loaded.errors.fullMessages()).toEqual(["User must exist"]);
  });

  it("bulk writes skip it, as they skip validations", async () => {
    await expect(Note.insert({ body: "bulk" })).resolves.toBeDefined();
    await expect(SignedNote.insert({ body: "bulk" })).resolves.toBeDefined();
  });
});
