/** The error classes: RecordInvalid, RecordNotSaved, RecordNotDestroyed, RecordNotUnique, and what each carries. */
import { inspect } from "node:util";
import { beforeEach, describe, expect, it } from "vitest";
import {
  abort,
  CastError,
  sql,
  CheckViolation,
  ConstraintViolation,
  InvalidForeignKey,
  NotNullViolation,
  Model,
  RecordInvalid,
  RecordNotDestroyed,
  RecordNotSaved,
  RecordNotUnique,
  IncompatibleRelation,
  InvalidModel,
  IrreversibleOrder,
  MissingAttribute,
  NoDatabase,
  RecordDestroyed,
  RecordflareError,
  RecordNotFound,
  UnknownAttribute,
} from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { thrown, rejectionOf } from "../helpers/errors.js";
import { Post, User } from "../models/fixtures.js";
import { Item } from "../models/typed-items.js";
import { stateOf, NEW } from "../helpers/record-states.js";
import { SaaOwner } from "../models/titled-items-and-owners.js";

beforeEach(resetDatabase);

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

describe("Errors (SPEC: RecordInvalid, RecordNotSaved, RecordNotDestroyed)", () => {
  it("createOrThrow and updateOrThrow", async () => {
    class Checked extends SaaOwner {
      static {
        this.validates("name", { presence: true });
        this.beforeSave((record) => {
          if (record.name === "stop") throw abort("stopped here");
        });
        this.beforeDestroy(() => {
          throw abort("never");
        });
      }
    }
    const invalid = await Checked.createOrThrow({}).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(RecordInvalid);
    expect((invalid as RecordInvalid).record).toBeInstanceOf(Checked);
    const owner = await Checked.createOrThrow({ name: "Ada" });
    await expect(owner.updateOrThrow({ name: "stop" })).rejects.toThrow(new RecordNotSaved("stopped here"));
    const notDestroyed = await owner.destroyOrThrow().catch((error: unknown) => error);
    expect(notDestroyed).toBeInstanceOf(RecordNotDestroyed);
    expect((notDestroyed as Error).message).toBe("never");
    expect(owner.isPersisted()).toBe(true);
  });
});

describe("RecordNotUnique for every write the database refuses for a unique constraint", () => {
  it("a duplicate primary key, updateAll, insert, insertAll and a batch of saves", async () => {
    const first = await Item.create({ code: "a" });
    await Item.create({ code: "b" });
    expect(await thrown(() => Item.create({ id: first.id }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.where({ code: "b" }).updateAll({ code: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.insert({ code: "a" }))).toBeInstanceOf(RecordNotUnique);
    expect(await thrown(() => Item.insertAll([{ code: "c" }, { code: "c" }]))).toBeInstanceOf(RecordNotUnique);
    const { batch } = await import("../../src/index.js");
    const one = Item.build({ code: "d" });
    const two = Item.build({ code: "d" });
    expect(await thrown(() => batch([one.toSave(), two.toSave()]))).toBeInstanceOf(RecordNotUnique);
    expect(stateOf(one)).toEqual(NEW);
    expect(stateOf(two)).toEqual(NEW);
    expect(await Item.all().count()).toBe(2);
  });
});

describe("guide: Errors, the constraint errors of D1 (on local D1, which enforces foreign keys)", () => {
  it("a key that refers to no row, on create, update and updateAll, is InvalidForeignKey naming the Model", async () => {
    const created = await rejectionOf(Post.create({ userId: "nobody", title: "t" }));
    expect(created).toBeInstanceOf(InvalidForeignKey);
    expect(created).toBeInstanceOf(ConstraintViolation);
    expect(created).toBeInstanceOf(RecordflareError);
    expect(created.message).toMatch(/^Post: a FOREIGN KEY constraint failed/);
    expect((created.cause as Error).message).toContain("FOREIGN KEY constraint failed");
    const user = await User.create({ name: "Ada" });
    const post = await Post.create({ userId: user.id, title: "t" });
    expect(await rejectionOf(post.update({ userId: "nobody" }))).toBeInstanceOf(InvalidForeignKey);
    expect(post.userId).toBe("nobody");
    const bulk = await rejectionOf(Post.where({ id: post.id }).updateAll({ userId: "nobody" }));
    expect(bulk).toBeInstanceOf(InvalidForeignKey);
    expect(bulk.message).toMatch(/^Post: /);
    expect(await Post.where({ userId: user.id }).count()).toBe(1);
  });

  it("deleting a row others still refer to is InvalidForeignKey naming the deleted Model; nothing is deleted", async () => {
    const user = await User.create({ name: "Ada" });
    await Post.create({ userId: user.id, title: "t" });
    const deleted = await rejectionOf(User.where({ id: user.id }).deleteAll());
    expect(deleted).toBeInstanceOf(InvalidForeignKey);
    expect(deleted.message).toMatch(/^User: a FOREIGN KEY constraint failed/);
    const destroyed = await rejectionOf(user.destroy());
    expect(destroyed).toBeInstanceOf(InvalidForeignKey);
    expect(user.isDestroyed()).toBe(false);
    expect(await User.where({ id: user.id }).count()).toBe(1);
  });

  it("in a batch of several Models' writes, D1 does not say which failed: the message names each Model written as the one it may be", async () => {
    const { batch } = await import("../../src/index.js");
    const error = await rejectionOf(batch([User.build({ name: "Ada" }).toSave(), Post.build({ userId: "nobody", title: "t" }).toSave()]));
    expect(error).toBeInstanceOf(InvalidForeignKey);
    expect(error.message).toMatch(/^User or Post: a FOREIGN KEY constraint failed/);
    expect(await User.all().count()).toBe(0);
  });

  it("reads beside the failed write (a WITH ... SELECT, a SELECT after a comment) leave the write's Model named", async () => {
    const { batch } = await import("../../src/index.js");
    const { defineStatement } = await import("../../src/plugin.js");
    const users = User.all().model;
    const reads = ["WITH named AS (SELECT 'Ada' AS name) SELECT * FROM users WHERE name IN named", "-- the users\nSELECT * FROM users"];
    const statements = reads.map((text) => defineStatement({ sql: text, model: users }));
    const error = await rejectionOf(batch([...statements, Post.build({ userId: "nobody", title: "t" }).toSave()]));
    expect(error).toBeInstanceOf(InvalidForeignKey);
    expect(error.message).toMatch(/^Post: a FOREIGN KEY constraint failed/);
  });

  it("a NOT NULL constraint of a bulk write names the attribute; a CHECK constraint gives its expression", async () => {
    const user = await User.create({ name: "Ada" });
    const notNull = await rejectionOf(User.where({ id: user.id }).updateAll({ name: null as never }));
    expect(notNull).toBeInstanceOf(NotNullViolation);
    expect(notNull.message).toBe("User.name cannot be NULL (users.name is NOT NULL)");
    // The json attribute always writes valid JSON: a Model reading the column as text can break the CHECK.
    class TextSettings extends Model({ id: "string", name: "string", settings: "string", createdAt: "datetime", updatedAt: "datetime" }) {
      static override binding = "DB";
      static override tableName = "users";
    }
    const check = await rejectionOf(TextSettings.where({ id: user.id }).updateAll({ settings: "{not json" }));
    expect(check).toBeInstanceOf(CheckViolation);
    expect(check).toBeInstanceOf(ConstraintViolation);
    expect(check.message).toBe("TextSettings: CHECK constraint failed: settings IS NULL OR json_valid(settings)");
    expect((check.cause as Error).message).toContain("CHECK constraint failed");
  });
});

/** What `fn` threw, checked to be a CastError carrying the Model, the attribute and the value refused. */
async function castErrorOf(fn: () => unknown, model: Function | undefined, attribute: string | undefined): Promise<CastError> {
  const error = (await thrown(fn)) as CastError;
  expect(error).toBeInstanceOf(CastError);
  expect(error).toBeInstanceOf(TypeError);
  expect(error.model).toBe(model);
  expect(error.attribute).toBe(attribute);
  return error;
}

/** What `fn` threw, checked to be the app's own TypeError: a wrong argument in code, not bad request input. */
async function codeErrorOf(fn: () => unknown): Promise<TypeError> {
  const error = (await thrown(fn)) as TypeError;
  expect(error).toBeInstanceOf(TypeError);
  expect(error).not.toBeInstanceOf(CastError);
  return error;
}

describe("guide: Errors, CastError for what a request can send, TypeError for the app's code", () => {
  const loneSurrogate = JSON.parse('"\\ud800"') as string;

  it("conditions: text that is not well-formed, undefined (a field left out) alone or in a list", async () => {
    const text = await castErrorOf(() => User.where({ name: loneSurrogate }), User, "name");
    expect(text.value).toBe(loneSurrogate);
    await castErrorOf(() => User.findBy({ name: ["Ada", loneSurrogate] }), User, "name");
    await castErrorOf(() => User.where({ email: undefined as never }), User, "email");
    await castErrorOf(() => User.whereNot({ age: [1, undefined] as never }), User, "age");
    await codeErrorOf(() => User.where({ name: Symbol("name") as never }));
    await codeErrorOf(() => User.where({ name: (() => "Ada") as never }));
  });

  it("find: an id that is not well-formed text or undefined, alone or in a list; an uncastable id is still RecordNotFound", async () => {
    await castErrorOf(() => User.find(loneSurrogate), User, "id");
    await castErrorOf(() => User.find(undefined as never), User, "id");
    await castErrorOf(() => User.find(["a", undefined] as never), User, "id");
    await castErrorOf(() => User.find(["a", loneSurrogate]), User, "id");
    expect(await thrown(() => User.find({ id: "a" } as never))).toBeInstanceOf(RecordNotFound);
    await codeErrorOf(() => User.find(Symbol("id") as never));
  });

  it("order: a direction or nulls that a query string or JSON can send; an order that is no object is the app's", async () => {
    const sideways = await castErrorOf(() => User.order({ name: "sideways" as never }), User, "name");
    expect(sideways.value).toBe("sideways");
    await castErrorOf(() => User.order({ name: 1 as never }), User, "name");
    await castErrorOf(() => User.order({ name: { direction: "up" } as never }), User, "name");
    await castErrorOf(() => User.order({ name: { direction: "asc", nulls: "middle" } as never }), User, "name");
    await codeErrorOf(() => User.order({ name: Symbol("asc") as never }));
    await codeErrorOf(() => User.order(new Map() as never));
  });

  it("sql fragments: a value a request can send and D1 cannot bind is a CastError of no Model", async () => {
    for (const value of [loneSurrogate, undefined, ["a"], { a: 1 }]) await castErrorOf(() => sql`name = ${value}`, undefined, undefined);
    await codeErrorOf(() => sql`name = ${new Map()}`);
    await codeErrorOf(() => sql`name = ${Symbol("x")}`);
  });

  it("assignments: text that is not well-formed, and a value over D1's limit for one value", async () => {
    await castErrorOf(() => User.build({ name: loneSurrogate }), User, "name");
    const long = "x".repeat(1_000_001);
    const error = await castErrorOf(() => User.create({ name: long }), User, "name");
    expect(error.message).toBe("User.name: a value of 1000001 bytes is over D1's limit of 1000000 bytes for one value");
    await castErrorOf(() => User.where({ name: long }).count(), User, "name");
    await codeErrorOf(() => User.build({ name: Symbol("name") as never }));
  });

  it("the value refused is read from the error, but no print, log or JSON of the error shows it", async () => {
    // A filtered attribute (email), given text that is not well-formed: the message shows no part of it.
    const error = await castErrorOf(() => User.build({ email: `c4n4ry${loneSurrogate}` }), User, "email");
    expect(error.value).toBe(`c4n4ry${loneSurrogate}`);
    expect(Object.keys(error)).not.toContain("value");
    for (const form of [JSON.stringify(error), inspect(error, { showHidden: true, depth: 10 }), String(error)]) expect(form).not.toContain("c4n4ry");
  });
});

// ---- Errors ---------------------------------------------------------------------------------------------------

describe("guide: Errors", () => {
  it("RecordNotUnique's message as shown; D1's error is the cause", async () => {
    await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
    const error = await rejectionOf(User.createOrThrow({ name: "Ada", email: "ada@example.com" }));
    expect(error).toBeInstanceOf(RecordNotUnique);
    expect(error.message).toBe("User.email has already been taken (users.email must be unique)");
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("the try/catch example compiles and lands in the RecordNotUnique branch", async () => {
    await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
    let branch = "";
    try {
      await User.createOrThrow({ name: "Ada", email: "ada@example.com" });
    } catch (error) {
      if (error instanceof RecordNotUnique) {
        branch = "unique";
      } else if (error instanceof RecordInvalid) {
        branch = String((error.record as InstanceType<typeof User>).errors.fullMessages());
      } else throw error;
    }
    expect(branch).toBe("unique");
  });

  it("find('missing') rejects with RecordNotFound", async () => {
    const found = await User.find("missing").catch((error) => {
      if (error instanceof RecordNotFound) return null;
      throw error;
    });
    expect(found).toBeNull();
  });

  it("every class is a RecordflareError", () => {
    for (const E of [
      UnknownAttribute,
      MissingAttribute,
      InvalidModel,
      RecordNotFound,
      RecordInvalid,
      RecordNotSaved,
      RecordNotDestroyed,
      RecordDestroyed,
      RecordNotUnique,
      ConstraintViolation,
      InvalidForeignKey,
      NotNullViolation,
      CheckViolation,
      IrreversibleOrder,
      IncompatibleRelation,
      NoDatabase,
    ])
      expect(E.prototype).toBeInstanceOf(RecordflareError);
  });

  it("a RecordNotFound with a filtered primary key shows [FILTERED]", async () => {
    class Sess extends Model({ token: { type: "string", null: false }, userName: "string" }) {
      static override binding = "DB";
      static override primaryKey = "token";
      static override tableName = "sessions";
    }
    const error = await rejectionOf(Sess.find("sekrit"));
    expect(error.message).toContain("[FILTERED]");
    expect(error.message).not.toContain("sekrit");
  });

  it("a NOT NULL constraint is NotNullViolation naming the Model and attribute; D1's error is the cause", async () => {
    const error = await rejectionOf(User.create({} as never));
    expect(error).toBeInstanceOf(NotNullViolation);
    expect(error).toBeInstanceOf(ConstraintViolation);
    expect(error.message).toBe("User.name cannot be NULL (users.name is NOT NULL)");
    expect(String((error.cause as Error).message)).toContain("NOT NULL constraint failed");
  });
});

describe("guide: Errors table, TypeError cases", () => {
  it("undefined in find's ids, updateAll with nothing to set", async () => {
    await expect(User.find(undefined as never)).rejects.toBeInstanceOf(TypeError);
    await expect(User.find(["a", undefined] as never)).rejects.toBeInstanceOf(TypeError);
    await expect(User.updateAll({})).rejects.toBeInstanceOf(TypeError);
    expect(() => User.toUpdateAll({})).toThrow(TypeError);
  });
});
