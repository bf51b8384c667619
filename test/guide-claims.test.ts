/**
 * The claims of docs/guide.md, checked against real D1: each test names the guide section it checks,
 * and asserts what the guide says.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, expectTypeOf, it } from "vitest";
import { abort, ActiveRecord, Base, batch, belongsTo, CastError, between, camelize, column, combining, connect, defineApplicationRecord, gt, gte, hasMany, AssociationNotLoaded, hasOne, idGeneration, IncompatibleRelation, ignoringCase, InvalidModel, IrreversibleOrder, lt, lte, MissingAttribute, Model, multiTenancy, NoDatabase, NoTenant, pluralize, RecordDestroyed, RecordflareError, RecordInvalid, RecordNotDestroyed, RecordNotFound, RecordNotSaved, RecordNotUnique, softDelete, sql, tableize, TenantMismatch, timestamps, underscore, UnknownAttribute, withDatabase, withTenant, type QueryEvent, type ScopeStatic } from "../src/index.js";
import { declareModelState, definePlugin, anyMatch, castAs, countOf, countStatement, isPlainObject, readAsCondition } from "../src/plugin.js";
import { resetDatabase } from "./helpers/db.js";
import { attrReadonly, readonlyAttributes } from "./helpers/guide-plugins.js";
import { rejectionOf, thrown } from "./helpers/errors.js";
import { countRows, listen, recordingRoundTrips } from "./helpers/queries.js";
import { ApplicationRecord, Post, schema, User } from "./models/fixtures.js";
import { Author, Book } from "./models/association-fixtures.js";

beforeEach(resetDatabase);

// ---- Quick start ----------------------------------------------------------------------------------------------

describe("guide: Quick start (the Worker)", () => {
  interface Env {
    DB: D1Database;
  }

  const worker = {
    async fetch(request, env): Promise<Response> {
      const db = connect(env.DB, {
        onQuery: (event) => void `${event.sql} ${JSON.stringify(event.params)} ${event.durationMs}ms`,
      });
      return withDatabase(db, async () => {
        const url = new URL(request.url);
        if (request.method === "POST" && url.pathname === "/users") {
          const attributes = User.permit(await request.formData(), "name", "email", "age");
          const user = await User.createOrThrow(attributes);
          return Response.json(user, { status: 201 });
        }
        const page = await User.order({ createdAt: "desc" }).paginate({ page: url.searchParams.get("page") });
        return Response.json(page);
      });
    },
  } satisfies ExportedHandler<Env>;

  it("creates from a form (admin cannot come in) and lists a page", async () => {
    const form = new FormData();
    form.set("name", "Ada");
    form.set("age", "36");
    form.set("admin", "true");
    const created = await worker.fetch(new Request("https://x/users", { method: "POST", body: form }), { DB: env.DB });
    expect(created.status).toBe(201);
    const json = (await created.json()) as Record<string, unknown>;
    expect(json["name"]).toBe("Ada");
    expect(json["age"]).toBe(36);
    expect(json["admin"]).toBe(false);
    const listed = await worker.fetch(new Request("https://x/"), { DB: env.DB });
    const page = (await listed.json()) as { records: { name: string }[]; page: number; total: number };
    expect(page.records.map((r) => r.name)).toEqual(["Ada"]);
    expect(page.page).toBe(1);
    expect(page.total).toBe(1);
  });
});

// ---- Models and attributes ------------------------------------------------------------------------------------

describe("guide: Declarations and types", () => {
  class Setting extends ApplicationRecord({
    id: { type: "string", null: false, generateId: true },
    key: { type: "string", null: false },
    value: { type: "json", default: () => ({}) },
    enabled: { type: "boolean", null: false, default: true },
    legacyTitle: { type: "string", column: "title" },
  }) {
    static override tableName = "guide_settings";
  }

  it("builds with defaults; legacyTitle uses the column title", async () => {
    const setting = Setting.build({ key: "theme" });
    expectTypeOf(setting.enabled).toEqualTypeOf<boolean>();
    expectTypeOf(setting.value).toEqualTypeOf<unknown>();
    expectTypeOf(setting.legacyTitle).toEqualTypeOf<string | null>();
    expect(setting.enabled).toBe(true);
    expect(setting.value).toEqual({});
    expect(setting.legacyTitle).toBeNull();
    setting.legacyTitle = "Old";
    await setting.saveOrThrow();
    const row = await env.DB.prepare("SELECT title FROM guide_settings").first<{ title: string }>();
    expect(row!.title).toBe("Old");
  });

  it("default and generateId exclude each other (InvalidModel)", () => {
    // thrown as the class is declared
    expect(() => Model({ id: "string", code: { type: "string", default: "x", generateId: true } as never })).toThrow(InvalidModel);
  });
});

describe("guide: Column naming and Table naming", () => {
  it("maps names as listed", () => {
    expect(["createdAt", "htmlURL", "userID", "sha256Hash"].map(underscore)).toEqual(["created_at", "html_url", "user_id", "sha256_hash"]);
    expect(camelize("html_url")).toBe("htmlUrl");
    expect(tableize("BlogPost")).toBe("blog_posts");
    expect(["User", "BlogPost", "Category", "Person", "Sheep", "Human", "Leaf"].map(tableize)).toEqual([
      "users",
      "blog_posts",
      "categories",
      "people",
      "sheep",
      "humen",
      "leafs",
    ]);
    expect(pluralize("person")).toBe("people");
  });

  it("a subclass setting a different tableName throws InvalidModel", () => {
    class Sub extends User {
      static override tableName = "people";
    }
    expect(() => Sub.build({ name: "x" })).toThrow(InvalidModel);
  });

  it("an inferred table that does not exist: the first query throws InvalidModel saying so", async () => {
    class Gadget extends ApplicationRecord({ id: "string" }) {}
    const error = await rejectionOf(Gadget.all().toArray());
    expect(error).toBeInstanceOf(InvalidModel);
    expect(error.message).toContain("gadgets");
  });
});

describe("guide: Static settings", () => {
  class AppBase extends ActiveRecord {
    static override binding = "DB";
    static override perPage = 20;
    static override filterAttributes = ["passw", "token", /^ssn$/];
  }
  const AppRecord = defineApplicationRecord(schema, AppBase);
  class Account extends AppRecord("users") {
    static override hiddenAttributes = ["email", "settings"];
    static override maxPerPage = 50;
    static override generateId = () => `usr_${crypto.randomUUID()}`;
  }

  it("applies the settings", async () => {
    const account = await Account.createOrThrow({ name: "Ada", email: "a@x.org", settings: { a: 1 } });
    expect(account.id).toMatch(/^usr_/);
    expect(Object.keys(account.toJSON())).not.toContain("email");
    expect(Object.keys(account.toJSON())).not.toContain("settings");
    expect((await Account.paginate()).perPage).toBe(20);
    expect((await Account.paginate({ perPage: 80 })).perPage).toBe(50);
    // email is no longer filtered: the base's list replaced the default one
    expect(String(account)).toContain(`email: "a@x.org"`);
  });

  it("first-use checks: a class field with an attribute's name throws InvalidModel", () => {
    class Shadow extends ApplicationRecord("users") {
      override name = "";
    }
    expect(() => Shadow.build()).toThrow(InvalidModel);
  });

  it("first-use checks: hiddenAttributes naming no attribute throws InvalidModel", () => {
    class Hid extends ApplicationRecord("users") {
      static override hiddenAttributes = ["nope"];
    }
    expect(() => Hid.build()).toThrow(InvalidModel);
  });
});

describe("guide: Overrides", () => {
  class Member extends ApplicationRecord("users", {
    admin: "integer",
    age: { null: false, default: () => 18 },
    settings: false,
  }) {}

  it("reads admin as a number, defaults age, ignores settings", async () => {
    const member = Member.build({ name: "Ada" });
    expectTypeOf(member.admin).toEqualTypeOf<number>();
    expectTypeOf(member.age).toEqualTypeOf<number>();
    expect(member.age).toBe(18);
    expect(member.admin).toBeNull(); // the generated default is dropped
    await member.saveOrThrow();
    expect(member.admin).toBe(0); // the column's own default
    expect(Member.all().toSql().sql).not.toContain("settings");
    expect(Member.all().toSql().sql).not.toContain("*");
    expect("settings" in member.attributes()).toBe(false);
  });
});

// ---- Casting ---------------------------------------------------------------------------------------------------

describe("guide: Casting", () => {
  it("casts and refuses with the messages shown", () => {
    const user = User.build({ name: "Ada", age: "36", admin: "on", bornAt: "1815-12-10" });
    expect(user.age).toBe(36);
    expect(user.admin).toBe(true);
    expect(user.bornAt!.toISOString()).toBe("1815-12-10T00:00:00.000Z");
    // CastError is the TypeError subclass of values that cannot be cast.
    expect(() => user.assign({ age: "1.7" })).toThrow(new CastError(`User.age: "1.7" is not a valid integer`, User, "age"));
    expect(() => User.permit({ email: 5 }, "email")).toThrow(new CastError("User.email: [FILTERED] is not a valid string", User, "email"));
    expect(() => user.assign({ age: undefined as never })).toThrow(new CastError("User.age cannot be set to undefined; use null for NULL", User, "age"));
    expect(user.age).toBe(36);
  });

  it("an unknown attribute is a compile error and UnknownAttribute at run time", () => {
    const user = User.build({ name: "Ada" });
    // @ts-expect-error nickname is not an attribute of User
    expect(() => user.assign({ nickname: "Ada" })).toThrow(UnknownAttribute);
  });

  it("accepted and refused forms of the table", () => {
    const user = User.build({ name: "x" });
    for (const v of ["1", "0", "TRUE", "Off", 1, 0]) expect(() => user.assign({ admin: v })).not.toThrow();
    expect(() => user.assign({ age: " -3 " })).not.toThrow();
    expect(user.age).toBe(-3);
    for (const v of ["1.5", ".5", "5.", "-2e3"]) expect(() => user.assign({ score: v })).not.toThrow();
    expect(() => user.assign({ score: " 1.5" })).toThrow(TypeError);
    for (const v of ["", "12abc", "1e3", 1.7, 2 ** 53]) expect(() => user.assign({ age: v })).toThrow(TypeError);
    for (const v of ["2024-01-01T00:00", "2024-01-01t00:00Z", "2024-01-01T00:00z", "2024-01-01 00:00Z", "2024-02-30", 5])
      expect(() => user.assign({ bornAt: v as never })).toThrow(TypeError);
    expect(() => user.assign({ bornAt: "2024-01-01T10:20+02:00" })).not.toThrow();
    expect(() => user.assign({ name: 5 as never })).toThrow(TypeError);
    expect(() => user.assign({ settings: "" })).toThrow(TypeError);
    expect(() => user.assign({ settings: Number.NaN })).toThrow(TypeError);
  });

  it("assign checks every value before setting any", () => {
    const user = User.build({ name: "Ada", age: 1 });
    expect(() => user.assign({ name: "Bob", age: "x" })).toThrow(TypeError);
    expect(user.name).toBe("Ada");
  });

  it("shows at most 60 characters of the value", () => {
    const error = thrown(() => User.build({ age: "9".repeat(100) + "x" }));
    return error.then((e) => {
      const shown = /: (.*) is not a valid integer/.exec((e as Error).message)![1]!;
      expect(shown).toBe(`"${"9".repeat(60)}…"`);
    });
  });
});

// ---- Records --------------------------------------------------------------------------------------------------

describe("guide: Records", () => {
  it("States: runs the example (reload, updateOrThrow, destroyOrThrow, RecordDestroyed)", async () => {
    const draft = User.build({ name: "Ada" });
    expect(draft.isNewRecord()).toBe(true);
    await expect(draft.reload()).rejects.toBeInstanceOf(RecordNotFound);
    await draft.saveOrThrow();
    expect(draft.isPersisted()).toBe(true);

    draft.name = "Ada L.";
    await draft.reload();
    expect(draft.name).toBe("Ada");
    expect(draft.isChanged()).toBe(false);

    expect(await draft.updateOrThrow({ age: 36 })).toBe(true);
    expect(await draft.destroyOrThrow()).toBe(draft);
    expect(draft.isDestroyed()).toBe(true);
    expect(draft.name).toBe("Ada");
    expect(() => {
      draft.name = "Grace";
    }).toThrow(RecordDestroyed);
    expect(() => {
      draft.name = "Grace";
    }).toThrow("User is destroyed and cannot be changed");
  });

  it("creates, updates with the SQL shown, destroys", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const user = await User.create({ name: "Ada", email: "ada@example.com" });
      expect(user.isPersisted()).toBe(true);
      expect(user.id).toMatch(/^[0-9a-f]{8}-/);
      await user.update({ age: 36 });
      expect(sqls().at(-1)).toBe(`UPDATE "users" SET "age" = ?, "updated_at" = ? WHERE "id" = ?`);
      user.age = 37;
      await user.saveOrThrow();
      const destroyed = await user.destroy();
      expect(destroyed).toBe(user);
      expect(user.isDestroyed()).toBe(true);
      expect(user.name).toBe("Ada");
      await expect(user.save()).rejects.toBeInstanceOf(RecordDestroyed);
    });
  });

  it("a Relation builds records with its equality conditions; has create and createOrThrow", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    const post = Post.where({ userId: user.id }).build({ title: "Hi" });
    expect(post.userId).toBe(user.id);
    const created = await Post.where({ userId: user.id }).createOrThrow({ title: "Hi" });
    expect(created.userId).toBe(user.id);
  });

  it("reload of a never-saved record throws RecordNotFound; destroying a never-saved record sends no DELETE", async () => {
    const { db, sqls } = listen();
    const draft = db.model(User).build({ name: "Ada" });
    await expect(draft.reload()).rejects.toBeInstanceOf(RecordNotFound);
    expect(await draft.destroy()).toBe(draft);
    expect(draft.isDestroyed()).toBe(true);
    expect(sqls()).toEqual([]);
  });

  it("errors: fullMessages of a base entry shows the message alone; iterable; JSON of its entries", () => {
    const user = User.build({ name: "x" });
    user.errors.add("base", "custom", "Something is wrong");
    user.errors.add("name", "blank", "can't be blank");
    expect(user.errors.fullMessages()).toEqual(["Something is wrong", "Name can't be blank"]);
    expect(user.errors.size).toBe(2);
    expect([...user.errors]).toHaveLength(2);
    expect(JSON.parse(JSON.stringify(user.errors))).toEqual(user.errors.toArray());
  });
});

describe("guide: Unassigned attributes", () => {
  class Counter extends ApplicationRecord({ id: "integer", label: "string", value: { type: "integer", null: false } }) {}

  it("gets the id and the column default back from RETURNING", async () => {
    const counter = await Counter.create({ label: "visits" });
    expect(counter.id).toBe(1);
    expect(counter.value).toBe(7);
  });
});

describe("guide: Timestamps", () => {
  it("a save with nothing changed sends nothing; update writes title and updatedAt", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const post = await Post.create({ userId: user.id, title: "Hello" });
      expect(post.createdAt).toBeInstanceOf(Date);
      const before = sqls().length;
      await post.save();
      expect(sqls().length).toBe(before);
      await post.update({ title: "Hello again" });
      expect(sqls().at(-1)).toBe(`UPDATE "posts" SET "title" = ?, "updated_at" = ? WHERE "id" = ?`);
    });
  });
});

describe("guide: JSON, attributes and hidden attributes", () => {
  class PublicUser extends ApplicationRecord("users") {
    static override hiddenAttributes = ["email", "settings"];
  }

  it("toJSON leaves out hidden attributes; attributes() has every one", () => {
    const shown = PublicUser.build({ name: "Ada", email: "ada@example.com" });
    expect(Object.keys(shown.toJSON()).sort()).toEqual(["id", "name", "age", "score", "admin", "bornAt", "createdAt", "updatedAt"].sort());
    expect(shown.attributes()["email"]).toBe("ada@example.com");
    expect(JSON.stringify(shown)).toBe(JSON.stringify(shown.toJSON()));
  });
});

describe("guide: Printing", () => {
  it("prints the record as shown", async () => {
    const ada = await User.create({ name: "Ada", email: "ada@example.com" });
    ada.name = "Ada L.";
    ada.email = "ada@example.org";
    expect(String(ada)).toMatch(/^#<User id: "[0-9a-f-]+", name: "Ada L\." \(was "Ada"\), email: \[FILTERED\] \(changed\), age: null, .*>$/);
    await ada.restoreAttributes();
    await ada.destroy();
    expect(String(ada)).toMatch(/^#<User \(destroyed\) /);
  });

  it("prints a Relation as shown", () => {
    expect(String(User.where({ age: gt(30) }))).toBe(`#<Relation User SELECT * FROM "users" WHERE "age" > ? [30]>`);
    expect(String(User.where({ email: "a@b.c" }))).toBe(`#<Relation User SELECT * FROM "users" WHERE "email" = ? ["[FILTERED]"]>`);
  });
});

// ---- Validations ----------------------------------------------------------------------------------------------

describe("guide: Subclasses", () => {
  class Reader extends ApplicationRecord("users") {
    static regular = this.scope((q) => q.where({ admin: false }));
    posts = hasMany(Post, { foreignKey: "userId" });
    static {
      this.validates("name", { presence: true });
    }
  }

  class Moderator extends Reader {
    static {
      this.validates("email", { presence: true });
    }
  }

  it("inherits a copy: the child's declarations never reach the parent; same table", async () => {
    expect(await Reader.build({ name: "Ada" }).save()).toBe(true);
    const moderator = Moderator.build({ name: "" });
    expect(await moderator.save()).toBe(false);
    expect(moderator.errors.fullMessages()).toEqual(["Name can't be blank", "Email can't be blank"]);
    expect(Moderator.regular().toSql().sql).toBe(`SELECT * FROM "users" WHERE "admin" = ?`);
    expect(Moderator.tableName).toBe("users");
    const saved = await Moderator.createOrThrow({ name: "Grace", email: "grace@example.com" });
    await Post.createOrThrow({ userId: saved.id, title: "Hi" });
    expect((await saved.posts().toArray()).map((post) => post.title)).toEqual(["Hi"]);
  });
});

describe("guide: Validations", () => {
  class Signup extends ApplicationRecord("users") {
    static {
      this.validates("name", { presence: true, length: { minimum: 2, maximum: 50 } });
      this.validates("email", { presence: true, format: /@/, uniqueness: { caseSensitive: false } });
      this.validates("score", { numericality: { greaterThan: 0 }, allowNil: true, message: "must be positive" });
    }
  }

  class Player extends ApplicationRecord("users") {
    static {
      this.validates("name", { length: { minimum: 2 } });
      this.validates("age", { numericality: { onlyInteger: true, allowNil: true } });
      this.validates("email", { format: { with: /@/, allowNil: true } });
      this.validates("score", { inclusion: { in: [1, 2, 3] }, allowNil: true });
    }
  }

  it("checks null as Rails checks nil, unless allowNil says to skip it", async () => {
    expect(await Player.build({ name: "Ada" }).save()).toBe(true);
    const nameless = Player.build({ score: 5 });
    expect(await nameless.save()).toBe(false);
    expect(nameless.errors.fullMessages()).toEqual(["Name is too short", "Score is not included in the list"]);
  });

  it("refuses with the messages shown", async () => {
    const signup = Signup.build({ name: "A", email: "ada" });
    expect(await signup.save()).toBe(false);
    expect(signup.errors.fullMessages()).toEqual(["Name is too short", "Email is invalid"]);
    expect(signup.errors.on("email")).toEqual([{ attribute: "email", type: "invalid", message: "is invalid" }]);
    signup.assign({ score: -1 });
    await signup.save();
    expect(signup.errors.fullMessages()).toContain("Score must be positive");
    // allowNil: no score is not a score that must be positive.
    expect(await Signup.build({ name: "Ada", email: "ada@x.org" }).save()).toBe(true);
  });

  it("uniqueness asks on a new record and on a change only; a save with no change sends nothing", async () => {
    const first = await Signup.createOrThrow({ name: "Ada", email: "Ada@x.org" });
    const dup = Signup.build({ name: "Bob", email: "ada@X.org" });
    expect(await dup.save()).toBe(false);
    expect(dup.errors.fullMessages()).toEqual(["Email has already been taken"]);
    const { db, sqls } = listen();
    const again = await db.model(Signup).find(first.id);
    const before = sqls().length;
    await again.save();
    expect(sqls().length).toBe(before);
  });
});

// ---- Callbacks ------------------------------------------------------------------------------------------------

describe("guide: Callbacks", () => {
  const welcomed: string[] = [];
  class Profile extends ApplicationRecord("users") {
    static {
      this.beforeSave((user) => {
        if (user.email !== null) user.email = user.email.trim().toLowerCase();
      });
      this.afterCreate(async (user) => {
        welcomed.push(`welcome ${user.name}`);
      });
      this.beforeDestroy((user) => {
        if (user.admin) throw abort("admins cannot be deleted");
      });
    }
  }

  it("normalizes, welcomes and refuses the destroy", async () => {
    const admin = await Profile.create({ name: "Root", email: " ROOT@Example.com ", admin: true });
    expect(admin.email).toBe("root@example.com");
    expect(welcomed).toEqual(["welcome Root"]);
    expect(await admin.destroy()).toBe(false);
    expect(admin.abortReason).toBe("admins cannot be deleted");
    await expect(admin.destroyOrThrow()).rejects.toBeInstanceOf(RecordNotDestroyed);
  });

  it("an abort in an after-callback: row written, save answers false with the reason", async () => {
    class Late extends ApplicationRecord("users") {
      static {
        this.afterSave(() => {
          throw abort("too late");
        });
      }
    }
    const late = Late.build({ name: "x" });
    expect(await late.save()).toBe(false);
    expect(late.isPersisted()).toBe(true);
    expect(late.abortReason).toBe("too late");
    expect(await countRows("users")).toBe(1);
    const error = await rejectionOf(Late.build({ name: "y" }).saveOrThrow());
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect(error.message).toBe("too late");
  });
});

// ---- Associations ---------------------------------------------------------------------------------------------

class Writer extends ApplicationRecord("users") {
  posts = hasMany(Entry, { dependent: "destroy", foreignKey: "userId" });
}

class Entry extends ApplicationRecord("posts") {
  author = belongsTo(Writer, { foreignKey: "userId" });
}

describe("guide: Associations", () => {
  it("saves the graph in one batch, preloads in two queries of one round trip, destroys as shown", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const ada = Writer.build({ name: "Ada" });
      ada.posts().build({ title: "One" });
      ada.posts().build({ title: "Two" });
      await ada.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([
        [`INSERT INTO "users"`, `INSERT INTO "posts"`, `INSERT INTO "posts"`],
      ]);

      const entries = await ada.posts().order({ title: "asc" }).toArray();
      const author = await entries[0]!.author.load();
      expectTypeOf(author).toEqualTypeOf<Writer | null>();
      expect(author!.id).toBe(ada.id);

      roundTrips.length = 0;
      const withAuthors = await Entry.includes("author").toArray();
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      expect(withAuthors.map((entry) => entry.author.get()?.name)).toEqual(["Ada", "Ada"]);

      roundTrips.length = 0;
      await ada.destroy();
      // No callbacks among the posts: one set-based DELETE of the posts in the owner's batch, no read.
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" WHERE")[0]))).toEqual([[`DELETE FROM "posts"`, `DELETE FROM "users"`]]);
    });
  });

  it("includes of a name that is not an association throws TypeError", async () => {
    await expect(Entry.includes("nope" as never).toArray()).rejects.toBeInstanceOf(TypeError);
  });

  it("hasOne, set, reloadAssociation and restrictWithError: runs the example", async () => {
    class Owner extends ApplicationRecord("users") {
      profile = hasOne(OwnerProfile, { foreignKey: "userId", dependent: "restrictWithError" });
    }
    class OwnerProfile extends Model({
      id: { type: "string", null: false },
      userId: { type: "string", null: false },
      bio: "string",
    }) {
      static override tableName = "profiles";
      static override binding = "DB";
      owner = belongsTo(Owner, { foreignKey: "userId" });
    }

    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const owner = Owner.build({ name: "Ada" });
      owner.profile.build({ bio: "Mathematician" });
      await owner.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "users"`, `INSERT INTO "profiles"`]]);
      expect(owner.profile.get()?.bio).toBe("Mathematician");

      roundTrips.length = 0;
      const profile = OwnerProfile.build({ bio: "Poet" });
      const byron = Owner.build({ name: "Byron" });
      profile.owner.set(byron);
      await profile.save();
      expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "users"`, `INSERT INTO "profiles"`]]);
      expect(profile.userId).toBe(byron.id);
      expect(byron.isPersisted()).toBe(true);

      await env.DB.prepare(`UPDATE profiles SET bio = 'Countess' WHERE user_id = ?`).bind(owner.id).run();
      await owner.reloadAssociation("profile");
      expect(owner.profile.get()?.bio).toBe("Countess");
      expect(await owner.destroy()).toBe(false);
      expect(owner.errors.fullMessages()).toEqual(["Cannot delete record because a dependent profile exists"]);
      expect(owner.isPersisted()).toBe(true);
    });
  });

  it("association options other than foreignKey, dependent and scope: a compile error, ignored at run time", async () => {
    class Blogger extends ApplicationRecord("users") {
      // @ts-expect-error className is not an option
      posts = hasMany(Post, { foreignKey: "userId", className: "Article" });
    }
    const blogger = await Blogger.createOrThrow({ name: "Ada" });
    await Post.createOrThrow({ userId: blogger.id, title: "Hi" });
    expect(await blogger.posts().count()).toBe(1);
  });

  it("Associations, scope: the Blogger example works as described", async () => {
    class Blogger extends ApplicationRecord("users") {
      published = hasMany(Post, { foreignKey: "userId", scope: (q) => q.where({ published: true }) });
      latest = hasMany(Post, { foreignKey: "userId", scope: (q) => q.order({ createdAt: "desc" }).limit(3) });
    }
    const blogger = await Blogger.createOrThrow({ name: "Ada" });
    for (const title of ["a", "b", "c", "d"]) await Post.createOrThrow({ userId: blogger.id, title });
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      await Blogger.includes("published").toArray();
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      await expect(Blogger.includes("latest").toArray()).rejects.toBeInstanceOf(IncompatibleRelation);
      expect(await blogger.latest().toArray()).toHaveLength(3);
    });
  });

  it("the default foreign key of hasMany is the owner's class name plus Id; a missing one throws InvalidModel at first use", async () => {
    class Blogger extends ApplicationRecord("users") {
      published = hasMany(Post);
    }
    const error = await thrown(async () => {
      const b = await Blogger.createOrThrow({ name: "x" });
      await b.published().toArray();
    });
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toContain("bloggerId");
  });
});

// ---- Change tracking ------------------------------------------------------------------------------------------

describe("guide: Change tracking", () => {
  it("the other methods, in the callbacks they are meant for", async () => {
    const logs: string[] = [];
    class Subscriber extends ApplicationRecord("users") {
      static {
        this.beforeSave((user) => {
          if (user.willSaveChangeTo("email")) user.admin = false;
        });
        this.afterUpdate((user) => {
          if (user.hasSavedChangeTo("name")) logs.push(`renamed from ${user.savedChangeTo("name")![0]}`);
        });
      }
    }
    const grace = await Subscriber.create({ name: "Grace", admin: true });
    expect(grace.isChanged()).toBe(false);
    grace.name = "Grace H.";
    expect(grace.isChanged()).toBe(true);
    expect(grace.changes()).toEqual({ name: ["Grace", "Grace H."] });
    expect(grace.changedAttributes()).toEqual({ name: "Grace" });
    expect(grace.attributeWas("name")).toBe("Grace");
    await grace.save();
    expect(logs).toEqual(["renamed from Grace"]);
    expect(grace.admin).toBe(true);
    await grace.update({ email: "grace@example.com" });
    expect(grace.admin).toBe(false);
    expect((await Subscriber.find(grace.id)).admin).toBe(false);
  });

  it("tracks as shown", async () => {
    const ada = await User.create({ name: "Ada", age: 30, settings: { theme: "dark" } });
    ada.age = 31;
    (ada.settings as { theme: string }).theme = "light";
    expect(ada.changed()).toEqual(["age", "settings"]);
    expect(ada.isAttributeChanged("age", { from: 30 })).toBe(true);
    expect(ada.isAttributeChanged("age", { from: "30" })).toBe(true);
    ada.restoreAttributes("settings");
    expect(ada.settings).toEqual({ theme: "dark" });
    await ada.save();
    const saved = ada.savedChanges();
    expect(Object.keys(saved)).toEqual(["age", "updatedAt"]);
    expect(saved["age"]).toEqual([30, 31]);
    expect(saved["updatedAt"]![0]).toBeInstanceOf(Date);
    expect(saved["updatedAt"]![1]).toBeInstanceOf(Date);
    expect(ada.attributeBeforeLastSave("age")).toBe(30);
    expect(ada.savedChangeTo("age")).toEqual([30, 31]);
    expect(ada.hasSavedChangeTo("age")).toBe(true);
  });

  it("restoreAttributes on a new record goes back to what build() gave it", () => {
    const user = User.build({ name: "Ada" });
    const id = user.id;
    user.admin = true;
    user.id = "other";
    user.restoreAttributes();
    expect(user.admin).toBe(false);
    expect(user.id).toBe(id);
  });
});

// ---- Querying -------------------------------------------------------------------------------------------------

describe("guide: Conditions", () => {
  it("compiles to the SQL shown", () => {
    expect(User.where({ admin: true, age: gt(17) }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "admin" = ? AND "age" > ?`,
      params: [1, 17],
    });
    expect(User.where({ name: ["Ada", "Grace"], email: null }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "name" IN (SELECT value FROM json_each(?)) AND "email" IS NULL`,
      params: ['["Ada","Grace"]'],
    });
    expect(User.where({ createdAt: between(new Date("2026-01-01"), new Date("2026-02-01"), { excludeEnd: true }) }).toSql().sql).toBe(
      `SELECT * FROM "users" WHERE "created_at" >= ? AND "created_at" < ?`,
    );
    expect(User.where({ age: 30 }).or(User.where({ admin: true })).toSql().sql).toBe(`SELECT * FROM "users" WHERE ("age" = ? OR "admin" = ?)`);
    expect(User.where({ age: "abc" }).toSql().sql).toBe(`SELECT * FROM "users" WHERE 1 = 0`);
    expect(User.where({ email: ignoringCase("Ada@Example.com") }).toSql().sql).toBe(`SELECT * FROM "users" WHERE "email" = ? COLLATE NOCASE`);
    expect(User.where({ age: gte(18), score: lt(9.5), bornAt: lte("2000-01-01") }).toSql()).toEqual({
      sql: `SELECT * FROM "users" WHERE "age" >= ? AND "score" < ? AND "born_at" <= ?`,
      params: [18, 9.5, "2000-01-01T00:00:00.000Z"],
    });
  });

  it("whereNot({ admin: true }) compiles to `... WHERE NOT (\"admin\" = ?)`", () => {
    expect(User.whereNot({ admin: true }).toSql().sql).toBe(`SELECT * FROM "users" WHERE NOT ("admin" = ?)`);
  });

  it("whereNot excludes rows with NULL; with several keys adds NOT (a IS NULL) for each", async () => {
    await User.createOrThrow({ name: "A", age: null });
    await User.createOrThrow({ name: "B", age: 5 });
    await User.createOrThrow({ name: "C", age: 6 });
    expect(await User.whereNot({ age: 5 }).pluck("name")).toEqual(["C"]);
    expect(User.whereNot({ age: 5, name: "x" }).toSql().sql).toContain(`NOT ("age" IS NULL)`);
    expect(await User.whereNot({}).count()).toBe(3);
  });

  it("ignoringCase filters its value in query events", async () => {
    const { db, events } = listen();
    await db.model(User).where({ email: ignoringCase("Ada@Example.com") }).toArray();
    expect(events[0]!.params).toEqual(["[FILTERED]"]);
  });

  it("or: r.or(M.none()) matches what r does; M.none().or(r) stays empty; differing in more than conditions throws", async () => {
    await User.createOrThrow({ name: "A", age: 1 });
    expect(await User.where({ age: 1 }).or(User.none()).count()).toBe(1);
    expect(await User.none().or(User.where({ age: 1 })).count()).toBe(0);
    expect(() => User.where({ age: 1 }).or(User.limit(1))).toThrow(IncompatibleRelation);
    expect(() => User.where({ age: 1 }).or(Post.all() as never)).toThrow(IncompatibleRelation);
  });

  it("comparison helpers on a boolean or json attribute throw TypeError; undefined throws TypeError", () => {
    expect(() => User.where({ settings: gt(1) as never }).toSql()).toThrow(TypeError);
    expect(() => User.where({ admin: gt(1) as never }).toSql()).toThrow(TypeError);
    expect(() => User.where({ age: undefined as never })).toThrow(TypeError);
    expect(() => User.where({ nope: 1 } as never)).toThrow(UnknownAttribute);
  });

  it("uncastable values: findBy gives null, find throws RecordNotFound, list elements dropped; number on string read as digits", async () => {
    const u = await User.createOrThrow({ name: "5" });
    expect(await User.findBy({ age: "abc" })).toBeNull();
    await expect(User.find("")).rejects.toBeInstanceOf(RecordNotFound);
    expect(User.where({ age: [1, "x", 2] }).toSql().params).toEqual(["[1.0,2.0]"]);
    expect((await User.findBy({ name: 5 as never }))!.id).toBe(u.id);
  });
});

describe("guide: SQL fragments", () => {
  it("compiles and runs as shown", async () => {
    await User.createOrThrow({ name: "Ada", email: "ada@example.com", age: 17 });
    await User.createOrThrow({ name: "Bob", age: 50 });
    await User.createOrThrow({ name: "Cy" });
    const r = User.where(sql`lower(${column("email")}) = lower(${"Ada@Example.com"})`);
    expect(r.toSql().sql).toBe(`SELECT * FROM "users" WHERE (lower("email") = lower(?))`);
    expect(await r.pluck("name")).toEqual(["Ada"]);
    expect(await User.order(sql`${column("age")} IS NULL, ${column("age")} DESC`).pluck("name")).toEqual(["Bob", "Ada", "Cy"]);
    expect(await User.where(sql`${column("age")} IN (SELECT value FROM json_each(${JSON.stringify([17, 50])}))`).count()).toBe(2);
  });

  it("refuses a plain string, an unknown column, undefined and a list; binds Date and boolean as stored", async () => {
    expect(() => User.where("1 = 1" as never)).toThrow(TypeError);
    expect(() => User.where(sql`${column("nope")} = 1`).toSql()).toThrow(UnknownAttribute);
    expect(() => User.where(sql`${column("age")} = ${undefined}`).toSql()).toThrow(TypeError);
    expect(() => User.where(sql`${column("age")} IN (${[1, 2]})`).toSql()).toThrow(TypeError);
    const at = new Date("2026-01-02T03:04:05.000Z");
    expect(User.where(sql`${column("bornAt")} = ${at} AND ${column("admin")} = ${true}`).toSql().params).toEqual([at.toISOString(), 1]);
    const u = await User.createOrThrow({ name: "x", bornAt: at, admin: true });
    expect((await User.where(sql`${column("bornAt")} = ${at} AND ${column("admin")} = ${true}`).first())!.id).toBe(u.id);
  });
});

describe("guide: Ordering, paging and shape", () => {
  it("compiles recent as shown; select; merge", async () => {
    const recent = Post.where({ published: true }).order({ createdAt: "desc" }).limit(10);
    expect(recent.toSql()).toEqual({ sql: `SELECT * FROM "posts" WHERE "published" = ? ORDER BY "created_at" DESC LIMIT 10`, params: [1] });

    await User.createOrThrow({ name: "Bob" });
    await User.createOrThrow({ name: "Ada" });
    const names = await User.select("name").order({ name: { direction: "asc", nulls: "last" } }).toArray();
    expect(names[0]!.name).toBe("Ada");
    expect(() => names[0]!.email).toThrow(new MissingAttribute("User.email was not loaded by select"));

    const mine = Post.where({ userId: "u1" });
    const merged = mine.merge(recent).toSql();
    expect(merged.sql).toBe(`SELECT * FROM "posts" WHERE "user_id" = ? AND "published" = ? ORDER BY "created_at" DESC LIMIT 10`);

    expect(User.order({ age: "asc" }).reorder({ name: "desc" }).limit(20).offset(40).toSql().sql).toBe(
      `SELECT * FROM "users" ORDER BY "name" DESC LIMIT 20 OFFSET 40`,
    );
    expect(User.select("age").distinct().toSql().sql).toBe(`SELECT DISTINCT "age" FROM "users"`);
    expect(User.none().where({ admin: true }).toSql().sql).toBe(`SELECT * FROM "users" WHERE 1 = 0`);
    expect(await User.none().toArray()).toEqual([]);
  });

  it("order directions in any case; limit/offset refuse non-whole numbers; none shows 1 = 0; reorder() removes", () => {
    expect(User.order({ age: "DESC" as never }).toSql().sql).toBe(`SELECT * FROM "users" ORDER BY "age" DESC`);
    expect(() => User.limit(-1)).toThrow(TypeError);
    expect(() => User.offset(1.5)).toThrow(TypeError);
    expect(User.none().where({ age: 1 }).toSql().sql).toContain("1 = 0");
    expect(User.order({ age: "asc" }).reorder().toSql().sql).toBe(`SELECT * FROM "users"`);
    expect(User.select("name").distinct().toSql().sql).toBe(`SELECT DISTINCT "name" FROM "users"`);
    expect(() => User.all().merge(Post.all() as never)).toThrow(IncompatibleRelation);
  });

  it("none() sends no query", async () => {
    const { db, sqls } = listen();
    expect(await db.model(User).none().toArray()).toEqual([]);
    expect(await db.model(User).none().count()).toBe(0);
    expect(sqls()).toEqual([]);
  });
});

describe("guide: Results", () => {
  it("runs the examples with the types shown", async () => {
    const a = await User.createOrThrow({ id: "019a0000-0000-7000-8000-000000000000", name: "Ada", age: 30, admin: true, email: "ada@example.com" });
    await User.createOrThrow({ id: "019a0000-0000-7000-8000-000000000001", name: "Grace", age: 40, email: "grace@example.com" });
    const ada = await User.find("019a0000-0000-7000-8000-000000000000");
    const [first, second] = await User.find([ada.id, "019a0000-0000-7000-8000-000000000001"]);
    expect([first!.name, second!.name]).toEqual(["Ada", "Grace"]);
    expect((await User.find(["019a0000-0000-7000-8000-000000000001", ada.id])).map((u) => u.name)).toEqual(["Grace", "Ada"]);
    const grace = await User.findBy({ email: "grace@example.com" });
    expectTypeOf(grace).toEqualTypeOf<User | null>();
    const oldest = await User.order({ age: "desc" }).first();
    expect(oldest!.name).toBe("Grace");
    const emails = await User.where({ admin: true }).pluck("email");
    expectTypeOf(emails).toEqualTypeOf<(string | null)[]>();
    expect(emails).toEqual(["ada@example.com"]);
    const pairs = await User.pluck("name", "age");
    expectTypeOf(pairs).toEqualTypeOf<[string, number | null][]>();
    expect(pairs).toEqual([
      ["Ada", 30],
      ["Grace", 40],
    ]);
    expect(await User.where({ admin: true }).count()).toBe(1);
    expect(await User.exists({ email: "ada@example.com" })).toBe(true);
    expect(a.id).toBe(ada.id);

    const both = await User.find(ada.id, second!.id);
    expect(both.map((user) => user.name)).toEqual(["Ada", "Grace"]);
    expect(await User.find([ada.id])).toHaveLength(1);
    const known = await User.findByOrThrow({ email: "ada@example.com" });
    expect(known.id).toBe(ada.id);
    await expect(User.findByOrThrow({ email: "nobody@example.com" })).rejects.toBeInstanceOf(RecordNotFound);
    const newest = await User.last();
    expect(newest!.name).toBe("Grace");
    const anyone = await User.take();
    expect(["Ada", "Grace"]).toContain(anyone!.name);
    expect(await User.where({ admin: true }).size()).toBe(1);
    expect(await User.where({ admin: true }).isEmpty()).toBe(false);
    expect(await User.where({ admin: true }).hasAny()).toBe(true);
    const many = await User.find(ada.id, "019a0000-0000-7000-8000-000000000001");
    expect(Array.isArray(many)).toBe(true);
    await expect(User.find([ada.id, "missing"])).rejects.toBeInstanceOf(RecordNotFound);
    await expect(User.find(null as never)).rejects.toBeInstanceOf(RecordNotFound);
  });

  it("first/last by primary key; last with sql order throws IrreversibleOrder; last of a window; take; count with limit", async () => {
    for (const name of ["A", "B", "C", "D"]) await User.createOrThrow({ name });
    expect((await User.first())!.name).toBe("A");
    expect((await User.last())!.name).toBe("D");
    await expect(User.order(sql`${column("name")}`).last()).rejects.toBeInstanceOf(IrreversibleOrder);
    await expect(User.order(sql`${column("name")}`).limit(2).last()).rejects.toBeInstanceOf(IrreversibleOrder);
    expect((await User.order({ name: "asc" }).limit(2).last())!.name).toBe("B");
    expect((await User.order({ name: "asc" }).offset(1).limit(2).last())!.name).toBe("C");
    expect(await User.limit(2).offset(3).count()).toBe(1);
    expect(await User.none().first()).toBeNull();
    expect(await User.where({ name: "Z" }).take()).toBeNull();
    expect(await User.where({ name: "Z" }).isEmpty()).toBe(true);
    expect(await User.hasAny()).toBe(true);
    expect(await User.size()).toBe(4);
  });
});

// ---- Scopes ---------------------------------------------------------------------------------------------------

describe("guide: Scopes", () => {
  class Article extends ApplicationRecord("posts") {
    static published = this.scope((q) => q.where({ published: true }));
    static since = this.scope((q, days: number) => q.where({ createdAt: gt(new Date(Date.now() - days * 86_400_000)) }));
    static titled: ScopeStatic<[title: string]> = this.scope((q, title: string) => q.where({ title }).merge(Article.published()));
  }

  it("runs the examples", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    await User.createOrThrow({ id: "u1", name: "U" });
    await Article.createOrThrow({ userId: "u1", title: "a", published: true });
    await Post.createOrThrow({ userId: user.id, title: "b" });
    const week = await Article.published().since(7).order({ createdAt: "desc" }).toArray();
    expect(week.map((p) => p.title)).toEqual(["a"]);
    expect(await Article.where({ userId: "u1" }).published().count()).toBe(1);
    expect(await Article.titled("a").count()).toBe(1);
  });

  it("names that cannot be scopes: then, data, modelClass, where (at first use)", () => {
    for (const name of ["then", "data", "modelClass", "where", "count", "all"]) {
      const Bad = class extends ApplicationRecord("posts") {};
      Object.defineProperty(Bad, "name", { value: "Post" });
      expect(() => (Bad as unknown as { scope(fn: unknown): unknown }).scope).toBeDefined();
      (Bad as unknown as Record<string, unknown>)[name] = (Bad as unknown as { scope(fn: unknown): unknown }).scope((q: unknown) => q);
      expect(() => Bad.build({ title: "x" }), name).toThrow(InvalidModel);
    }
  });
});

// ---- Pagination -----------------------------------------------------------------------------------------------

describe("guide: Pagination", () => {
  it("runs the example; count and page are one round trip", async () => {
    const user = await User.createOrThrow({ name: "Ada" });
    await Post.insertAll(Array.from({ length: 42 }, (_, i) => ({ userId: user.id, title: `t${i}`, published: true })));
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const url = new URL("https://example.com/posts?page=2&per=10");
      const page = await Post.where({ published: true })
        .order({ createdAt: "desc" })
        .paginate({ page: url.searchParams.get("page"), perPage: url.searchParams.get("per") });
      expect(roundTrips).toHaveLength(1);
      expect(roundTrips[0]).toHaveLength(2);
      expect(page.records).toHaveLength(10);
      expect(page.total).toBe(42);
      expect(page.totalPages).toBe(5);
      expect(page.hasNext).toBe(true);
      expect(page.hasPrevious).toBe(true);
      const cheap = await Post.paginate({ page: 3, count: false });
      expect("total" in cheap).toBe(false);
      expect("totalPages" in cheap).toBe(false);
      expect(cheap.records).toHaveLength(0); // 42 rows: page 3 of 25 is past the last
      expect(cheap.hasNext).toBe(false);
    });
  });

  it("rules 1, 3, 5, 6 and totalPages 0", async () => {
    expect((await User.paginate({ page: "", perPage: null })).page).toBe(1);
    expect((await User.paginate()).totalPages).toBe(0);
    await expect(User.paginate({ page: "0" })).rejects.toBeInstanceOf(TypeError);
    await expect(User.paginate({ page: 1.5 })).rejects.toBeInstanceOf(TypeError);
    expect((await User.paginate({ perPage: 500 })).perPage).toBe(100);
    await expect(User.limit(5).paginate()).rejects.toBeInstanceOf(IncompatibleRelation);
    await User.createOrThrow({ name: "A" });
    const past = await User.paginate({ page: 9 });
    expect(past.records).toEqual([]);
    expect(past.total).toBe(1);
  });
});

// ---- Bulk writes ----------------------------------------------------------------------------------------------

describe("guide: Bulk writes", () => {
  it("runs the example", async () => {
    await env.DB.prepare(`INSERT INTO users (id, name, created_at, updated_at) VALUES ('u1', 'U', 'x', 'x')`).run();
    await Post.insert({ userId: "u1", title: "Hello" });
    const meta = await Post.insertAll([
      { userId: "u1", title: "One" },
      { userId: "u1", title: "Two" },
    ]);
    expect(meta["changes"]).toBe(2);

    await User.upsert({ id: "019a0000-0000-7000-8000-000000000000", name: "Ada", admin: false });
    expect((await User.find("019a0000-0000-7000-8000-000000000000")).name).toBe("Ada");
    await User.insertAll([{ name: "Grace", email: "grace@example.com" }], { onDuplicate: "skip" });
    const skipped = await User.insertAll([{ name: "Grace", email: "grace@example.com" }], { onDuplicate: "skip" });
    expect(skipped["changes"]).toBe(0);
    await expect(User.insertAll([{ name: "Grace", email: "grace@example.com" }])).rejects.toBeInstanceOf(RecordNotUnique);

    const published = await Post.where({ userId: "u1" }).updateAll({ published: true });
    expect(published).toBe(3);
    const removed = await Post.where({ published: true }).order({ createdAt: "asc" }).limit(2).deleteAll();
    expect(removed).toBe(2);
    expect(await Post.count()).toBe(1);

    await User.upsertAll(
      [
        { email: "grace@example.com", name: "Grace Hopper" },
        { email: "alan@example.com", name: "Alan" },
      ],
      { uniqueBy: ["email"] },
    );
    expect((await User.where({ email: ["grace@example.com", "alan@example.com"] }).order({ name: "asc" }).pluck("name"))).toEqual(["Alan", "Grace Hopper"]);
    await batch([Post.where({ userId: "u1" }).toDeleteAll(), User.where({ email: "alan@example.com" }).toUpdateAll({ admin: true })]);
    expect(await Post.count()).toBe(0);
    expect((await User.findByOrThrow({ email: "alan@example.com" })).admin).toBe(true);
  });

  it("rules: upsert keeps createdAt; updateAll leaves updatedAt; empty insertAll TypeError; none(); distinct()", async () => {
    const user = await User.createOrThrow({ name: "Ada", age: 1 });
    const before = (await User.find(user.id)).updatedAt.getTime();
    await User.upsert({ id: user.id, name: "Ada 2" });
    const after = await User.find(user.id);
    expect(after.createdAt.getTime()).toBe(user.createdAt.getTime());
    expect(after.age).toBe(1);
    await User.updateAll({ age: 2 });
    expect((await User.find(user.id)).updatedAt.getTime()).toBe(after.updatedAt.getTime());
    expect(before).toBeLessThanOrEqual(after.updatedAt.getTime());
    await expect(User.insertAll([])).rejects.toBeInstanceOf(TypeError);
    await expect(User.insertAll([{ name: "a" }, { name: "b", age: 1 }])).rejects.toBeInstanceOf(TypeError);
    const { db, sqls } = listen();
    expect(await db.model(User).none().updateAll({ age: 3 })).toBe(0);
    expect(await db.model(User).none().deleteAll()).toBe(0);
    expect(sqls()).toEqual([]);
    expect(User.none().toUpdateAll({ age: 3 }).toSql().sql).toContain("WHERE 1 = 0");
    expect(User.none().toDeleteAll().toSql().sql).toContain("WHERE 1 = 0");
    await expect(User.distinct().updateAll({ age: 1 })).rejects.toBeInstanceOf(IncompatibleRelation);
    expect(() => User.distinct().toDeleteAll()).toThrow(IncompatibleRelation);
    await expect(User.updateAll({ age: "x" })).rejects.toBeInstanceOf(TypeError);
    expect(() => User.toUpdateAll({ age: "x" })).toThrow(TypeError);
  });
});

// ---- The database ---------------------------------------------------------------------------------------------

describe("guide: The database", () => {
  it("runs the example", async () => {
    const seen: string[] = [];
    const db = connect(env.DB, { onQuery: (event) => seen.push(event.sql) });
    const returned = await withDatabase(db, async () => {
      await User.create({ name: "Ada" });
      return 42;
    });
    expect(returned).toBe(42);
    expect(seen).toHaveLength(1);
    const users = db.model(User);
    const ada = await users.findBy({ name: "Ada" });
    await ada?.update({ age: 36 });
    expect(seen).toHaveLength(3);
    expect(await User.count()).toBe(1);
    expect(seen).toHaveLength(3);
    const remove = db.onQuery(() => seen.push("extra"));
    await users.count();
    remove();
    await users.count();
    expect(seen.filter((s) => s === "extra")).toHaveLength(1);
    expect(db.bookmark()).toBeNull();
  });

  it("NoDatabase without binding, and with a binding missing from env", async () => {
    class Loose extends Model({ id: "string" }) {
      static override tableName = "notes";
    }
    await expect(Loose.all().toArray()).rejects.toBeInstanceOf(NoDatabase);
    class Wrong extends Model({ id: "string" }) {
      static override tableName = "notes";
      static override binding = "NOPE";
    }
    await expect(Wrong.all().toArray()).rejects.toBeInstanceOf(NoDatabase);
  });

  it("Sessions", async () => {
    const db = connect(env.DB, { session: "first-unconstrained" });
    await db.model(User).count();
    expect(typeof db.bookmark()).toBe("string");
    const response = new Response("ok");
    response.headers.set("x-d1-bookmark", db.bookmark() ?? "");
    expect(response.headers.get("x-d1-bookmark")).not.toBe("");
  });
});

describe("guide: Batch", () => {
  it("runs the first example", async () => {
    const owner = await User.createOrThrow({ name: "Owner" });
    await Post.createOrThrow({ userId: owner.id, title: "Draft" });
    const author = User.build({ name: "Grace" });
    const post = Post.build({ userId: author.id, title: "First" });
    const old = await Post.findByOrThrow({ title: "Draft" });
    const result = await batch([author.toSave(), post.toSave(), old.toDestroy()]);
    expect(author.isPersisted()).toBe(true);
    expect(old.isDestroyed()).toBe(true);
    expect(result).toEqual([author, post, old]);
    expect(await batch([])).toEqual([]);
  });

  it("runs the second example; Statement toSql as shown", async () => {
    const writer = User.build({ name: "Ada" });
    const [, inserted, archived] = await batch([
      writer.toSave(),
      Post.toInsert({ userId: writer.id, title: "Welcome" }),
      Post.where({ userId: writer.id, published: false }).toUpdateAll({ published: true }),
    ]);
    expect(inserted).toBeDefined();
    expect(archived).toBe(1);
    const q = Post.toInsert({ userId: writer.id, title: "x" }).toSql();
    expect(q.sql).toMatch(/^INSERT INTO "posts" \(.*\) SELECT .* FROM json_each\(\?\)/);
  });

  it("a refused record throws before anything is written; a D1 refusal writes nothing", async () => {
    class Strict extends ApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    const ok = User.build({ name: "ok" });
    await expect(batch([ok.toSave(), Strict.build({ name: "bad" }).toSave()])).rejects.toBeInstanceOf(RecordInvalid);
    expect(await countRows("users")).toBe(0);
    await User.createOrThrow({ name: "a", email: "a@x.org" });
    const fresh = User.build({ name: "b" });
    await expect(batch([fresh.toSave(), User.build({ name: "c", email: "a@x.org" }).toSave()])).rejects.toBeInstanceOf(RecordNotUnique);
    expect(fresh.isNewRecord()).toBe(true);
    expect(await countRows("users")).toBe(1);
  });
});

// ---- Query events ---------------------------------------------------------------------------------------------

describe("guide: Query events", () => {
  it("gives the event shown", async () => {
    const events: QueryEvent[] = [];
    const db = connect(env.DB, { onQuery: (event) => events.push(event) });
    await db.model(User).create({ name: "Ada", email: "ada@example.com" });
    const event = events[0]!;
    expect(event.sql).toBe(
      `INSERT INTO "users" ("id", "name", "email", "admin", "created_at", "updated_at") VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
    );
    expect(event.params.slice(1, 4)).toEqual(["Ada", "[FILTERED]", 0]);
    expect(event.params[4]).toMatch(/^2\d{3}-.*Z$/);
    expect(event.batched).toBe(false);
    expect(event.rowsRead).toBe(1);
    expect(event.rowsWritten).toBe(3);
    expect(typeof event.durationMs).toBe("number");
    expect("error" in event).toBe(false);
  });

  it("a failed query emits its event with error set to the thrown error", async () => {
    const { db, events } = listen();
    await db.model(User).create({ name: "Ada", email: "ada@example.com" });
    const error = await rejectionOf(db.model(User).create({ name: "B", email: "ada@example.com" }));
    expect(events.at(-1)!.error).toBe(error);
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

  it("NOT NULL errors are D1's own", async () => {
    const error = await rejectionOf(User.create({} as never));
    expect(error).not.toBeInstanceOf(RecordflareError);
  });
});

// ---- Request input --------------------------------------------------------------------------------------------

describe("guide: Request input and security", () => {
  it("permits as described", async () => {
    const form = new FormData();
    form.append("name", "Ada");
    form.append("name", "Ada2");
    form.append("admin", "true");
    form.append("age", "36");
    const attributes = User.permit(form, "name", "email", "age");
    expect(attributes).toEqual({ name: "Ada2", age: 36 });
    expect(User.permit(new URLSearchParams("age=1&age=2"), "age")).toEqual({ age: 2 });
    expect(User.permit({ email: null }, "email")).toEqual({ email: null });
    expect(() => User.permit({}, "nope" as never)).toThrow(UnknownAttribute);
    for (const input of [[], new Map(), new Headers(), null, "x", new Date()]) expect(() => User.permit(input as never, "name")).toThrow(TypeError);
    const fileForm = new FormData();
    fileForm.append("name", new File(["x"], "x.txt"));
    expect(() => User.permit(fileForm, "name")).toThrow(TypeError);
    const user = await User.create(attributes);
    expect(user.admin).toBe(false);
  });

  it("findBy({ email: null }) matches rows whose email is NULL", async () => {
    await User.createOrThrow({ name: "Ada" });
    expect(await User.findBy({ email: null })).not.toBeNull();
  });
});

// ---- Hook catalogue -------------------------------------------------------------------------------------------

describe("guide: The hook catalogue", () => {
  it("abort() defaults to the reason 'aborted'", async () => {
    class Stop extends ApplicationRecord("users") {
      static {
        this.beforeSave(() => {
          throw abort();
        });
      }
    }
    const s = Stop.build({ name: "x" });
    expect(await s.save()).toBe(false);
    expect(s.abortReason).toBe("aborted");
  });

  it("registering a hook after the Model's first use throws InvalidModel", () => {
    class Used extends ApplicationRecord("users") {}
    Used.build({ name: "x" });
    expect(() => Used.hook("record:beforeSave", () => {})).toThrow(InvalidModel);
  });

  it("record:hydrate runs for loaded rows and reload, not for the RETURNING row of an insert", async () => {
    let hydrated = 0;
    class Hyd extends ApplicationRecord("users") {
      static {
        this.hook("record:hydrate", () => {
          hydrated++;
        });
      }
    }
    const h = await Hyd.createOrThrow({ name: "x" });
    expect(hydrated).toBe(0);
    await Hyd.find(h.id);
    expect(hydrated).toBe(1);
    await h.reload();
    expect(hydrated).toBe(2);
  });

  it("record:write: values on update are the changed ones; an update left with no values sends nothing", async () => {
    const seen: string[][] = [];
    class W extends ApplicationRecord("users") {
      static {
        this.hook("record:write", ({ values }) => {
          seen.push([...values.keys()]);
        });
      }
    }
    const w = await W.createOrThrow({ name: "x" });
    w.age = 3;
    await w.save();
    expect(seen.at(-1)).toEqual(["age"]);
  });
});

// ---- Writing a plugin -----------------------------------------------------------------------------------------

describe("guide: Per-Model state", () => {
  it("a Model registering the readonly-attributes plugin itself", async () => {
    class Writer extends ApplicationRecord("users") {
      static {
        this.use(readonlyAttributes);
        attrReadonly(this, "email");
      }
    }
    const writer = await Writer.createOrThrow({ name: "Ada", email: "ada@example.com" });
    expect(await writer.update({ email: "ada@example.org" })).toBe(false);
    expect(writer.errors.fullMessages()).toEqual(["Email can't be changed"]);
  });

  it("declareModelState after first use throws InvalidModel", () => {
    class Used extends ApplicationRecord("users") {}
    Used.build({ name: "x" });
    expect(() => attrReadonly(Used, "name")).toThrow(InvalidModel);
  });

  it("Base.use called later works only for Model classes made after it", () => {
    const marks: string[] = [];
    class Later extends ActiveRecord {
      static override binding = "DB";
    }
    const LaterRecord = defineApplicationRecord(schema, Later);
    const plugin = definePlugin({
      name: "guide-claims-mark",
      hooks: {
        "record:initialize"() {
          marks.push("init");
        },
      },
    });
    class Before extends LaterRecord("users") {}
    Later.use(plugin);
    class After extends LaterRecord("users") {}
    Before.build({ name: "x" });
    expect(marks).toEqual([]);
    After.build({ name: "x" });
    expect(marks).toEqual(["init"]);
  });
});

const guideSchema = {
  guide_articles: {
    id: { type: "string", null: false, generateId: true },
    title: { type: "string", null: false },
    deletedAt: "datetime",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
} as const;

class GuideBase extends ActiveRecord {
  static override binding = "DB";
}
const GuideRecord = defineApplicationRecord(guideSchema, GuideBase);

describe("guide: Optional plugins: soft delete", () => {
  class Article extends GuideRecord("guide_articles") {
    static {
      this.use(softDelete);
    }
  }
  const trash = () => (Article as unknown as { onlyDeleted(): typeof Article }).onlyDeleted();

  it("runs the example", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const article = await Article.createOrThrow({ title: "Old news" });
      await article.destroyOrThrow();
      expect(sqls().at(-1)).toBe(`UPDATE "guide_articles" SET "deleted_at" = ?, "updated_at" = ? WHERE "id" = ?`);
      expect(article.isDestroyed()).toBe(true);
      expect(article.deletedAt).toBeInstanceOf(Date);
      expect(await Article.findBy({ title: "Old news" })).toBeNull();
      expect(sqls().at(-1)).toContain(`WHERE "title" = ? AND "deleted_at" IS NULL`);
      const [trashed] = await trash().toArray();
      expect(trashed!.title).toBe("Old news");
      expect(await (trashed as unknown as { restore(): Promise<boolean> }).restore()).toBe(true);
      expect(await Article.findBy({ title: "Old news" })).not.toBeNull();
    });
  });

  it("a toDestroy() in a batch is the UPDATE in the batch, and the record ends destroyed", async () => {
    const article = await Article.createOrThrow({ title: "x" });
    await batch([article.toDestroy()]);
    expect(article.isDestroyed()).toBe(true);
    const row = await env.DB.prepare("SELECT deleted_at FROM guide_articles WHERE id = ?").bind(article.id).first<{ deleted_at: string | null }>();
    expect(row!.deleted_at).not.toBeNull();
  });
});

describe("guide: Example: audit log (the plugin itself is run by guide-examples.test.ts)", () => {
  it("an attribute named changes cannot be declared (InvalidModel)", () => {
    class Bad extends Model({ id: "string", changes: "json" }) {
      static override tableName = "guide_audit_log_entries";
    }
    expect(() => Bad.build()).toThrow(InvalidModel);
  });
});

const tenancySchema = {
  guide_projects: {
    id: { type: "string", null: false, generateId: true },
    tenantId: { type: "string", null: false },
    name: { type: "string", null: false },
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
  guide_tasks: {
    id: { type: "string", null: false, generateId: true },
    tenantId: { type: "string", null: false },
    projectId: { type: "string", null: false },
    title: { type: "string", null: false },
    done: { type: "boolean", null: false, default: false },
  },
} as const;

class TenantBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(multiTenancy({ attribute: "tenantId" }));
  }
}
const TenantRecord = defineApplicationRecord(tenancySchema, TenantBase);

class Project extends TenantRecord("guide_projects") {
  tasks = hasMany(Task, { foreignKey: "projectId", dependent: "deleteAll" });
}

class Task extends TenantRecord("guide_tasks") {
  project = belongsTo(Project, { foreignKey: "projectId" });
}

describe("guide: Example: multi-tenancy", () => {
  /** Two tenants' rows in each table, written straight to D1 (ids p-a, p-b, t-a1, t-a2, t-b1). */
  async function seed(): Promise<void> {
    const now = "2026-01-01T00:00:00.000Z";
    await env.DB.batch([
      env.DB.prepare("INSERT INTO guide_projects VALUES ('p-a', 'acme', 'Acme site', ?, ?), ('p-b', 'globex', 'Globex site', ?, ?)").bind(now, now, now, now),
      env.DB.prepare(
        "INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('t-a1', 'acme', 'p-a', 'Acme one'), ('t-a2', 'acme', 'p-a', 'Acme two'), ('t-b1', 'globex', 'p-b', 'Globex one')",
      ),
    ]);
  }

  const titles = (records: { title: string }[]) => records.map((record) => record.title).sort();

  it("runs the usage example: the query is narrowed in SQL, a new record gets the tenant", async () => {
    await seed();
    const { db, sqls, events } = listen();
    await withDatabase(db, () =>
      withTenant("acme", async () => {
        const project = await Project.createOrThrow({ name: "Launch" });
        expect(project.tenantId).toBe("acme");
        expect((await Project.order({ name: "asc" }).toArray()).map((p) => p.name)).toEqual(["Acme site", "Launch"]);
        expect(sqls().at(-1)).toBe(`SELECT * FROM "guide_projects" WHERE "tenant_id" = ? ORDER BY "name" ASC`);
        expect(events.at(-1)!.params).toEqual(["acme"]);
      }),
    );
  });

  it("every read shows the current tenant's rows only: toArray, find, findBy, first/last, count/pluck/exists, paginate, where on the tenant", async () => {
    await seed();
    await withTenant("acme", async () => {
      expect(titles(await Task.all().toArray())).toEqual(["Acme one", "Acme two"]);
      expect((await Task.find("t-a1")).title).toBe("Acme one");
      await expect(Task.find("t-b1")).rejects.toBeInstanceOf(RecordNotFound);
      await expect(Task.find("t-a1", "t-b1")).rejects.toBeInstanceOf(RecordNotFound);
      expect(await Task.findBy({ title: "Globex one" })).toBeNull();
      expect(await Task.where({ tenantId: "globex" }).toArray()).toEqual([]);
      expect((await Task.order({ title: "asc" }).first())!.title).toBe("Acme one");
      expect((await Task.order({ title: "asc" }).last())!.title).toBe("Acme two");
      expect(await Task.count()).toBe(2);
      expect((await Task.pluck("title")).sort()).toEqual(["Acme one", "Acme two"]);
      expect(await Task.exists({ id: "t-b1" })).toBe(false);
      const page = await Task.paginate({ perPage: 1 });
      expect(page.total).toBe(2);
      expect(page.records.map((task) => task.tenantId)).toEqual(["acme"]);
    });
    const acmeTask = (await withTenant("acme", () => Task.take()))!;
    expect(acmeTask.tenantId).toBe("acme");
    await withTenant("globex", async () => {
      expect(titles(await Task.all().toArray())).toEqual(["Globex one"]);
      expect(await Task.count()).toBe(1);
      await expect(acmeTask.reload()).rejects.toBeInstanceOf(RecordNotFound);
    });
  });

  it("association loads and includes preloads are narrowed too, even over a foreign key that points across tenants", async () => {
    await seed();
    // A corrupt row: globex's task points at acme's project.
    await env.DB.prepare("INSERT INTO guide_tasks (id, tenant_id, project_id, title) VALUES ('t-x', 'globex', 'p-a', 'Stray')").run();
    await withTenant("acme", async () => {
      const project = await Project.find("p-a");
      expect(titles(await project.tasks().toArray())).toEqual(["Acme one", "Acme two"]);
      const [preloaded] = await Project.includes("tasks").toArray();
      expect(titles(await preloaded.tasks().toArray())).toEqual(["Acme one", "Acme two"]);
    });
    await withTenant("globex", async () => {
      const stray = await Task.find("t-x");
      expect(await stray.project.load()).toBeNull();
      const [loaded] = await Task.where({ id: "t-x" }).includes("project").toArray();
      expect(loaded.project.get()).toBeNull();
    });
  });

  it("updateAll and deleteAll (and a dependent deleteAll) touch the current tenant's rows only", async () => {
    await seed();
    await withTenant("acme", async () => {
      expect(await Task.updateAll({ done: true })).toBe(2);
      expect(await Task.where({ title: "Globex one" }).deleteAll()).toBe(0);
    });
    const done = await env.DB.prepare("SELECT id, done FROM guide_tasks ORDER BY id").all<{ id: string; done: number }>();
    expect(done.results).toEqual([
      { id: "t-a1", done: 1 },
      { id: "t-a2", done: 1 },
      { id: "t-b1", done: 0 },
    ]);
    const { db, sqls } = listen();
    await withDatabase(db, () =>
      withTenant("globex", async () => {
        const project = await Project.find("p-b");
        expect(project.tasks().toDeleteAll().toSql()).toEqual({
          sql: `DELETE FROM "guide_tasks" WHERE "project_id" = ? AND "tenant_id" = ?`,
          params: ["p-b", "globex"],
        });
        // The dependent deleteAll of the project's tasks, then its own DELETE.
        expect(await project.destroy()).toBe(project);
        expect(sqls()).toContain(`DELETE FROM "guide_tasks" WHERE "project_id" = ? AND "tenant_id" = ?`);
        expect(await Task.deleteAll()).toBe(0);
      }),
    );
    expect(await countRows("guide_tasks")).toBe(2);
    expect(await countRows("guide_projects")).toBe(1);
  });

  it("writes are stamped and guarded: the record's own UPDATE and DELETE of another tenant's row change nothing and throw TenantMismatch", async () => {
    await seed();
    const { events, db } = listen();
    const acmeTask = await withTenant("acme", () => db.model(Task).find("t-a1"));
    await withTenant("globex", async () => {
      // Loaded under acme, saved under globex: its UPDATE is narrowed to globex's rows, changes nothing and throws.
      acmeTask.title = "Taken over";
      const error = await rejectionOf(acmeTask.save());
      expect(error).toBeInstanceOf(TenantMismatch);
      expect(error.message).toBe(`Task with id "t-a1" was not saved: its row is not tenant "globex"'s (or is gone)`);
      expect(events.at(-1)!.sql).toBe(`UPDATE "guide_tasks" SET "title" = ? WHERE "id" = ? AND ("tenant_id" = ?)`);
      expect(events.at(-1)!.params).toEqual(["Taken over", "t-a1", "globex"]);
      await expect(acmeTask.destroy()).rejects.toThrow(`Task with id "t-a1" was not destroyed: its row is not tenant "globex"'s (or is gone)`);
      expect(acmeTask.isDestroyed()).toBe(false);
      // Built for another tenant: refused.
      const foreign = Task.build({ projectId: "p-b", title: "Sneaky", tenantId: "acme" });
      expect(await foreign.save()).toBe(false);
      expect(foreign.abortReason).toBe("belongs to another tenant");
      // Moved to another tenant: refused before anything is sent.
      const own = await Task.find("t-b1");
      own.tenantId = "acme";
      await expect(own.save()).rejects.toThrow("Task: a row of another tenant cannot be written");
      // Stamped at build, by a Relation's create too.
      const stamped = await Task.where({ done: true }).createOrThrow({ projectId: "p-b", title: "Stamped" });
      expect(stamped.tenantId).toBe("globex");
    });
    await withTenant("acme", async () => {
      // A globex record moved to acme, under acme: its UPDATE finds no acme row with its key.
      const globexTask = await withTenant("globex", () => Task.find("t-b1"));
      globexTask.tenantId = "acme";
      await expect(globexTask.save()).rejects.toBeInstanceOf(TenantMismatch);
    });
    const rows = await env.DB.prepare("SELECT id, tenant_id, title FROM guide_tasks WHERE id LIKE 't-%' ORDER BY id").all();
    expect(rows.results).toEqual([
      { id: "t-a1", tenant_id: "acme", title: "Acme one" },
      { id: "t-a2", tenant_id: "acme", title: "Acme two" },
      { id: "t-b1", tenant_id: "globex", title: "Globex one" },
    ]);
  });

  it("bulk inserts are stamped, and a row of another tenant is refused with TypeError before anything is sent", async () => {
    await withTenant("acme", async () => {
      const project = await Project.createOrThrow({ name: "Bulk" });
      await Task.insertAll([{ projectId: project.id, title: "One" }, { projectId: project.id, title: "Two" }]);
      await expect(Task.insert({ projectId: project.id, title: "Three", tenantId: "globex" })).rejects.toThrow(
        "Task: a row of another tenant cannot be written",
      );
    });
    const rows = await env.DB.prepare("SELECT tenant_id, title FROM guide_tasks ORDER BY title").all();
    expect(rows.results).toEqual([
      { tenant_id: "acme", title: "One" },
      { tenant_id: "acme", title: "Two" },
    ]);
  });

  it("with no tenant open, queries, saves and bulk writes throw NoTenant; building leaves the tenant null", async () => {
    await seed();
    const error = await rejectionOf(Task.all().toArray());
    expect(error).toBeInstanceOf(NoTenant);
    expect(error).toBeInstanceOf(RecordflareError);
    expect(error.message).toBe("Task: no tenant is open; run the work inside withTenant(tenantId, fn)");
    expect(() => Task.all().toSql()).toThrow(NoTenant);
    await expect(Task.find("t-a1")).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.count()).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.updateAll({ done: true })).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.deleteAll()).rejects.toBeInstanceOf(NoTenant);
    await expect(Task.insert({ projectId: "p-a", title: "x", tenantId: "acme" })).rejects.toBeInstanceOf(NoTenant);
    const task = Task.build({ projectId: "p-a", title: "x" });
    expect(task.tenantId).toBeNull();
    await expect(task.save()).rejects.toBeInstanceOf(NoTenant);
    expect(await countRows("guide_tasks")).toBe(3);
  });

  it("the uniqueness validator checks within the tenant", async () => {
    await seed();
    class UniqueTask extends TenantRecord("guide_tasks") {
      static {
        this.validates("title", { uniqueness: true });
      }
    }
    await withTenant("acme", async () => {
      expect(await UniqueTask.build({ projectId: "p-a", title: "Globex one" }).save()).toBe(true);
      const taken = UniqueTask.build({ projectId: "p-a", title: "Acme one" });
      expect(await taken.save()).toBe(false);
      expect(taken.errors.fullMessages()).toEqual(["Title has already been taken"]);
    });
  });

  it("the plugin applies only to Models with the tenant attribute", () => {
    class Note extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
      static override binding = "DB";
      static {
        this.use(multiTenancy());
      }
    }
    expect(Note.all().toSql().sql).toBe(`SELECT * FROM "notes"`);
  });

  it("relation hooks receive the Model they compile for: the tenant's column is found through a column override", () => {
    class Workspaced extends Model({ id: "string", workspace: { type: "string", column: "body" } }) {
      static override tableName = "notes";
      static override binding = "DB";
      static {
        this.use(multiTenancy({ attribute: "workspace" }));
      }
    }
    withTenant("acme", () => {
      expect(Workspaced.where({ id: "n1" }).toSql()).toEqual({ sql: `SELECT * FROM "notes" WHERE "id" = ? AND "body" = ?`, params: ["n1", "acme"] });
    });
  });
});

// ---- Smaller bundles ------------------------------------------------------------------------------------------

describe("guide: Smaller bundles", () => {
  it("without tableNaming a Model infers no table: tableName reads '' and first use throws InvalidModel", () => {
    class KernelBase extends Base {
      static override binding = "DB";
    }
    class Thing extends KernelBase {}
    expect(Thing.tableName).toBe("");
    expect(() => (Thing as unknown as { build(): unknown }).build()).toThrow(InvalidModel);
  });

  it("without attributeFiltering nothing is filtered", async () => {
    class KernelBase extends Base {
      static override binding = "DB";
    }
    const KernelRecord = defineApplicationRecord(schema, KernelBase);
    class U extends KernelRecord("users") {}
    const { db, events } = listen();
    await db.model(U).where({ email: "a@b.c" }).toArray();
    expect(events[0]!.params).toEqual(["a@b.c"]);
  });

  it("or and merge come with the combining plugin", async () => {
    class KernelBase extends Base {
      static override binding = "DB";
    }
    class CombiningBase extends Base {
      static override binding = "DB";
      static {
        this.use(idGeneration, timestamps, combining);
      }
    }
    class Bare extends defineApplicationRecord(schema, KernelBase)("users") {}
    class Combined extends defineApplicationRecord(schema, CombiningBase)("users") {}
    expect("or" in Bare.all()).toBe(false);
    expect("merge" in Bare).toBe(false);
    await Combined.create({ name: "a", age: 1 });
    await Combined.create({ name: "b", age: 2 });
    await Combined.create({ name: "c", age: 3 });
    const either = Combined.where({ name: "a" }).or(Combined.where({ age: 3 }));
    expect((await either.order({ name: "asc" }).toArray()).map((u) => u.name)).toEqual(["a", "c"]);
    expect((await Combined.where({ age: [1, 2] }).merge(Combined.where({ name: "b" })).toArray()).map((u) => u.name)).toEqual(["b"]);
    expect(() => Combined.all().merge(Bare.all() as never)).toThrow(IncompatibleRelation);
  });
});

// ---- Choices --------------------------------------------------------------------------------------------------

describe("guide: Choices made where the specification leaves it open", () => {
  it("no batch splitting: an insertAll of 150 rows is one statement with one bound value; a batch is one round trip", async () => {
    const { db, events } = listen();
    await db.model(User).insertAll(Array.from({ length: 150 }, (_, index) => ({ name: `u${index}` })));
    expect(events).toHaveLength(1);
    expect(events[0]!.params).toHaveLength(1);
    expect(await User.where({ name: Array.from({ length: 150 }, (_, index) => `u${index}`) }).count()).toBe(150);
    const { binding, roundTrips } = recordingRoundTrips();
    const users = Array.from({ length: 120 }, (_, index) => connect(binding).model(User).build({ name: `b${index}` }));
    await batch(users.map((user) => user.toSave()));
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]).toHaveLength(120);
  });

  it("insert resolves to D1's meta unchanged: changes, last_row_id, rows_read, rows_written, duration", async () => {
    const meta = await User.insert({ name: "Ada" });
    expectTypeOf(meta).toEqualTypeOf<Record<string, unknown>>();
    expect(meta).toMatchObject({ changes: 1 });
    for (const key of ["last_row_id", "rows_read", "rows_written", "duration"]) expect(meta).toHaveProperty(key);
    const ada = (await User.first())!;
    const skipped = await User.insertAll([{ id: ada.id, name: "Ada" }], { onDuplicate: "skip" });
    expect(skipped["changes"]).toBe(0);
  });

  it("ids are UUID v7 in creation order; first/last give oldest and newest", async () => {
    const ids = Array.from({ length: 5 }, () => User.build({ name: "x" }).id);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/);
  });

  it("a save with no change still runs validation and save callbacks", async () => {
    const ran: string[] = [];
    class Cb extends ApplicationRecord("users") {
      static {
        this.validates("name", { presence: true });
        this.beforeSave(() => void ran.push("before"));
        this.afterSave(() => void ran.push("after"));
      }
    }
    const c = await Cb.createOrThrow({ name: "x" });
    ran.length = 0;
    await c.save();
    expect(ran).toEqual(["before", "after"]);
  });

  it("restrictWithError + destroyOrThrow throws RecordNotDestroyed", async () => {
    class Owner extends ApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "restrictWithError", foreignKey: "userId" });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: o.id, title: "t" });
    await expect(o.destroyOrThrow()).rejects.toBeInstanceOf(RecordNotDestroyed);
    expect(await o.destroy()).toBe(false);
    expect(o.errors.on("base")).toHaveLength(1);
  });
});

// ---- Second round: claims in the prose ------------------------------------------------------------------------

describe("guide: Models and attributes, prose claims", () => {
  it("a table missing from the schema is InvalidModel at run time", () => {
    const make = ApplicationRecord as unknown as (table: string) => { build(): unknown };
    expect(() => make("nope").build()).toThrow(InvalidModel);
  });

  it("a text primary key gets a generated id even without the flag", () => {
    class Plain extends Model({ id: "string", body: "string" }) {
      static override tableName = "notes";
    }
    expect(Plain.build().id).toMatch(/^[0-9a-f]{8}-/);
  });

  it("override rules 1 and 4: unknown key, changed column, ignored primary key; uncastable default TypeError at build", () => {
    expect(() => ApplicationRecord("users", { nope: "string" } as never)).toThrow(InvalidModel);
    expect(() => ApplicationRecord("users", { name: { column: "x" } } as never)).toThrow(InvalidModel);
    // ignoring the primary key is refused at the Model's first use
    class NoKey extends ApplicationRecord("users", { id: false } as never) {}
    expect(() => (NoKey as unknown as { build(): unknown }).build()).toThrow(InvalidModel);
    class Bad extends ApplicationRecord("users", { age: { default: () => "abc" } }) {}
    expect(() => Bad.build({ name: "x" })).toThrow(TypeError);
  });

  it("an attribute named like a record method throws InvalidModel at first use", () => {
    class Bad extends Model({ id: "string", save: "string" }) {
      static override tableName = "notes";
    }
    expect(() => Bad.build()).toThrow(InvalidModel);
  });
});

describe("guide: Records, prose claims", () => {
  it("destroy() succeeds even if the row is already gone", async () => {
    const user = await User.createOrThrow({ name: "x" });
    await env.DB.prepare("DELETE FROM users").run();
    expect(await user.destroy()).toBe(user);
    await expect(user.reload()).rejects.toBeInstanceOf(RecordDestroyed);
  });

  it("reload of a deleted row throws RecordNotFound and discards unsaved changes otherwise", async () => {
    const user = await User.createOrThrow({ name: "x" });
    user.name = "y";
    await user.reload();
    expect(user.name).toBe("x");
    await env.DB.prepare("DELETE FROM users").run();
    await expect(user.reload()).rejects.toBeInstanceOf(RecordNotFound);
  });

  it("a record loaded by select without updatedAt cannot have it assigned, but its changing saves set it", async () => {
    const user = await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(() => {
      partial.updatedAt = new Date();
    }).toThrow(MissingAttribute);
    partial.name = "y";
    expect(await partial.save()).toBe(true);
    const row = await User.find(user.id);
    expect(row.name).toBe("y");
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(user.updatedAt.getTime());
    expect(row.updatedAt.getTime()).toBe(partial.updatedAt.getTime());
    expect(() => partial.createdAt).toThrow(MissingAttribute);
  });

  it("a failed write takes back the timestamps it set", async () => {
    await User.createOrThrow({ name: "a", email: "a@x.org" });
    const user = await User.createOrThrow({ name: "b" });
    user.email = "a@x.org";
    await expect(user.save()).rejects.toBeInstanceOf(RecordNotUnique);
    expect(user.changed()).toEqual(["email"]);
  });

  it("a record selected with select has only its loaded attributes in toJSON and attributes", async () => {
    await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(Object.keys(partial.toJSON()).sort()).toEqual(["id", "name"]);
    expect(Object.keys(partial.attributes()).sort()).toEqual(["id", "name"]);
  });

  it("an attribute a partial select did not load prints (changed)", async () => {
    await User.createOrThrow({ name: "x" });
    const partial = (await User.select("name").first())!;
    expect(String(partial)).toContain("age: (changed)");
  });

  it("a new record flags nothing; hidden attributes still print", () => {
    class Hid extends ApplicationRecord("users") {
      static override hiddenAttributes = ["age"];
    }
    const text = String(Hid.build({ name: "x", age: 3 }));
    expect(text).toContain("age: 3");
    expect(text).not.toContain("(was");
    expect(text).not.toContain("(changed)");
  });

  it("new User() has no database and uses the current one when saved", async () => {
    const user = new User();
    user.id = "new-user";
    user.name = "x";
    const { db, sqls } = listen();
    await withDatabase(db, () => user.save());
    expect(sqls()).toHaveLength(1);
  });
});

describe("guide: Validations, the options table", () => {
  class V extends ApplicationRecord("users") {
    static {
      this.validates("settings", { presence: true, length: { maximum: 2 } });
      this.validates("name", { length: { maximum: 2 }, inclusion: ["ab", "🙂🙂"] });
      this.validates("email", { numericality: { onlyInteger: true } });
    }
  }

  it("presence refuses false and an empty array; length counts an emoji as one; numericality reads text", async () => {
    const v = V.build({ name: "🙂🙂", settings: [], email: " 12 " });
    expect(await v.save()).toBe(false);
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}`)).toEqual(["settings:blank"]);
    v.assign({ settings: false });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}`)).toEqual(["settings:blank"]);
    v.assign({ settings: [1, 2, 3], name: "abc", email: "12.0" });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}:${e.message}`)).toEqual([
      "settings:too_long:is too long",
      "name:too_long:is too long",
      "name:inclusion:is not included in the list",
      "email:not_an_integer:must be an integer",
    ]);
    v.assign({ email: "12abc", settings: [1], name: "ab" });
    await v.save();
    expect(v.errors.toArray().map((e) => `${e.attribute}:${e.type}:${e.message}`)).toEqual(["email:not_a_number:is not a number"]);
  });

  it("declarations run parent first; a subclass's never reach its parent", async () => {
    class Parent extends ApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    class Child extends Parent {
      static {
        this.validates("age", { presence: true });
      }
    }
    const c = Child.build({ name: "x" });
    await c.save();
    expect(c.errors.toArray().map((e) => e.attribute)).toEqual(["email", "age"]);
    const p = Parent.build({ name: "x" });
    await p.save();
    expect(p.errors.toArray().map((e) => e.attribute)).toEqual(["email"]);
  });
});

describe("guide: Callbacks, prose claims", () => {
  it("run in declaration order, not grouped; parent first", async () => {
    const ran: string[] = [];
    class P extends ApplicationRecord("users") {
      static {
        this.afterSave(() => void ran.push("P.afterSave"));
        this.beforeCreate(() => void ran.push("P.beforeCreate"));
        this.beforeSave(() => void ran.push("P.beforeSave"));
      }
    }
    class C extends P {
      static {
        this.beforeSave(() => void ran.push("C.beforeSave"));
      }
    }
    await C.createOrThrow({ name: "x" });
    expect(ran).toEqual(["P.beforeCreate", "P.beforeSave", "C.beforeSave", "P.afterSave"]);
  });

  it("in a batch, every record is finished before the first callback error is thrown", async () => {
    class Boom extends ApplicationRecord("users") {
      static {
        this.afterSave(() => {
          throw new Error("boom");
        });
      }
    }
    const a = Boom.build({ name: "a" });
    const b = User.build({ name: "b" });
    const error = await rejectionOf(batch([a.toSave(), b.toSave()]));
    expect(error.message).toBe("boom");
    expect(a.isPersisted()).toBe(true);
    expect(b.isPersisted()).toBe(true);
  });
});

describe("guide: Associations, prose claims", () => {
  it("toArray of an association is remembered: size(), isEmpty(), hasAny() then send nothing", async () => {
    const ada = await Writer.createOrThrow({ name: "Ada" });
    await Entry.createOrThrow({ userId: ada.id, title: "t" });
    const { db, sqls } = listen();
    const loaded = await db.model(Writer).find(ada.id);
    await loaded.posts().toArray();
    const n = sqls().length;
    expect(await loaded.posts().size()).toBe(1);
    expect(await loaded.posts().isEmpty()).toBe(false);
    expect(await loaded.posts().hasAny()).toBe(true);
    expect(sqls().length).toBe(n);
  });

  it("get() of an association not loaded throws AssociationNotLoaded; also on a record made with new", async () => {
    const entry = Entry.build({ userId: "x", title: "t" });
    expect(() => entry.author.get()).toThrow(AssociationNotLoaded);
    expect(() => new Entry().author.get()).toThrow(AssociationNotLoaded);
  });

  it("a refused child refuses the owner's save: errors 'Post is invalid: Title can't be blank'; nothing written", async () => {
    const StrictPost = class Post extends ApplicationRecord("posts") {
      static {
        this.validates("title", { presence: true });
      }
    };
    class Owner extends ApplicationRecord("users") {
      posts = hasMany(StrictPost, { foreignKey: "userId" });
    }
    const owner = Owner.build({ name: "x" });
    const child = owner.posts().build({ title: "  " });
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages()).toEqual(["Post is invalid: Title can't be blank"]);
    expect(child.errors.fullMessages()).toEqual(["Title can't be blank"]);
    expect(await countRows("users")).toBe(0);
  });

  it("hasOne build again replaces the unsaved child: one child written", async () => {
    class Profile extends Model({ id: { type: "string", null: false }, userId: { type: "string", null: false }, bio: "string" }) {
      static override binding = "DB";
    }
    class Owner extends ApplicationRecord("users") {
      profile = hasOne(Profile, { foreignKey: "userId" });
    }
    const owner = Owner.build({ name: "x" });
    owner.profile.build({ bio: "a" });
    owner.profile.build({ bio: "b" });
    await owner.saveOrThrow();
    expect(await countRows("profiles")).toBe(1);
  });

  it("a new parent given with set() is saved with the record, in the same batch", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const writer = Writer.build({ name: "W" });
      const entry = Entry.build({ title: "t" });
      entry.author.set(writer);
      await entry.saveOrThrow();
      expect(roundTrips).toHaveLength(1);
      expect(entry.userId).toBe(writer.id);
      expect(writer.isPersisted()).toBe(true);
    });
  });

  it("dependent: 'delete' on hasMany is InvalidModel at first use; nullify on NOT NULL throws D1's error, nothing written", async () => {
    class Bad extends ApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "delete" as never, foreignKey: "userId" });
    }
    expect(() => Bad.build({ name: "x" })).toThrow(InvalidModel);
    class Nul extends ApplicationRecord("users") {
      posts = hasMany(Post, { dependent: "nullify", foreignKey: "userId" });
    }
    const n = await Nul.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: n.id, title: "t" });
    const error = await rejectionOf(n.destroy());
    expect(error).not.toBeInstanceOf(RecordflareError);
    expect(await countRows("users")).toBe(1);
    expect(await countRows("posts")).toBe(1);
  });

  it("associations are never in toJSON", async () => {
    const w = Writer.build({ name: "x" });
    w.posts().build({ title: "t" });
    expect(Object.keys(w.toJSON())).not.toContain("posts");
  });
});

describe("guide: Querying, prose claims", () => {
  it("await User.where(...) does not run a query (no then)", async () => {
    expect("then" in User.where({ age: 1 })).toBe(false);
  });

  it("count agrees with toArray with distinct", async () => {
    await User.createOrThrow({ name: "a" });
    await User.createOrThrow({ name: "a" });
    const r = User.select("name").distinct();
    expect(await r.count()).toBe((await r.toArray()).length);
  });

  it("a distinct select cannot be saved: the primary key is not added", async () => {
    await User.createOrThrow({ name: "a" });
    const [rec] = await User.select("name").distinct().toArray();
    rec!.name = "b";
    await expect(rec!.save()).rejects.toThrow();
  });
});

describe("guide: Query events, prose claims", () => {
  it("a filtered primary key shows [FILTERED] in an UPDATE; batch events come flagged batched", async () => {
    class Sess extends Model({ token: { type: "string", null: false }, userName: "string" }) {
      static override binding = "DB";
      static override primaryKey = "token";
      static override tableName = "sessions";
    }
    const { db, events } = listen();
    const s = await db.model(Sess).createOrThrow({ token: "t1", userName: "a" });
    await s.update({ userName: "b" });
    expect(events.at(-1)!.params).toEqual(["b", "[FILTERED]"]);
    events.length = 0;
    await db.batch([db.model(User).toInsert({ name: "x" }), db.model(User).toInsert({ name: "y" })]);
    expect(events.map((e) => e.batched)).toEqual([true, true]);
  });

  it("a failed batch: every statement's event carries the error", async () => {
    const { db, events } = listen();
    await db.model(User).createOrThrow({ name: "a", email: "a@x.org" });
    events.length = 0;
    const error = await rejectionOf(db.batch([db.model(User).toInsert({ name: "b" }), db.model(User).toInsert({ name: "c", email: "a@x.org" })]));
    expect(events).toHaveLength(2);
    expect(events.every((e) => e.error === error)).toBe(true);
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

describe("guide: Batch, prose claims", () => {
  it("batch uses the database the first item writes through", async () => {
    const { db, sqls } = listen();
    const rec = db.model(User).build({ name: "x" });
    await batch([rec.toSave(), User.toInsert({ name: "y" })]);
    expect(sqls()).toHaveLength(2);
  });

  it("a Statement's result in a batch; toDestroy resolves to the record", async () => {
    const u = await User.createOrThrow({ name: "x" });
    const [destroyed, deleted] = await batch([u.toDestroy(), Post.toDeleteAll()]);
    expect(destroyed).toBe(u);
    expect(deleted).toBe(0);
  });
});

// ---- Third round: compile-time claims, hooks, associations with database keys ---------------------------------

describe("guide: compile-time claims", () => {
  it("compile errors the guide promises (checked by tsc through @ts-expect-error)", () => {
    const compileOnly = () => {
      // "A table missing from the schema is a compile error"
      // @ts-expect-error
      ApplicationRecord("nope");
      // override keys "must be attribute names of that table (others are a compile error ...)"
      // @ts-expect-error
      ApplicationRecord("users", { nope: "string" });
      // "A value the association does not take (`delete` on a `hasMany`) is a compile error"
      // @ts-expect-error
      hasMany(Post, { dependent: "delete" });
      // comparison helpers "On a boolean attribute they are a compile error"
      // @ts-expect-error
      User.where({ admin: gt(1) });
      // "a name that is not an attribute is a compile error"
      // @ts-expect-error
      User.permit({}, "nope");
      // "the types ask for lowercase"
      // @ts-expect-error
      User.order({ age: "DESC" });
      // assignment accepts number | string for integer, boolean | number | string for boolean, Date | string for datetime
      User.build({ age: "1", score: "1.5", admin: 1, bornAt: "2020-01-01", settings: Symbol });
      // "Relation methods a plugin adds exist at run time but are not in the Model's TypeScript types"
      // @ts-expect-error
      User.newestFirst();
    };
    expect(typeof compileOnly).toBe("function");
  });
});

describe("guide: The hook catalogue, order guarantees", () => {
  it("build, save and destroy run their hooks in the order listed", async () => {
    const log: string[] = [];
    const tracer = definePlugin({
      name: "guide-claims-tracer",
      hooks: {
        "record:initialize"() {
          log.push("initialize");
        },
        "attribute:assign"({ attribute }) {
          log.push(`assign:${attribute.name}`);
        },
        "record:validate"() {
          log.push("validate");
        },
        "record:beforeSave"() {
          log.push("beforeSave");
        },
        "record:beforeWrite"() {
          log.push("beforeWrite");
        },
        "record:write"() {
          log.push("write");
        },
        "record:afterSave"() {
          log.push("afterSave");
        },
        "record:beforeDestroy"() {
          log.push("beforeDestroy");
        },
        "record:beforeDelete"() {
          log.push("beforeDelete");
        },
        "record:afterDestroy"() {
          log.push("afterDestroy");
        },
      },
    });
    class Traced extends ApplicationRecord("users") {
      static {
        this.use(tracer);
      }
    }
    const t = Traced.build({ name: "x" });
    // idGeneration's own record:initialize hook (registered before this plugin) assigns the id
    expect(log).toEqual(["assign:admin", "assign:id", "initialize", "assign:name"]);
    log.length = 0;
    await t.save();
    // the timestamps plugin's record:write (registered first) assigns before this plugin's record:write runs
    expect(log).toEqual(["validate", "beforeSave", "beforeWrite", "assign:createdAt", "assign:updatedAt", "write", "afterSave"]);
    log.length = 0;
    await t.destroy();
    expect(log).toEqual(["beforeDestroy", "beforeDelete", "afterDestroy"]);
  });

  it("relation hooks get data with the fields listed", () => {
    let keys: string[] = [];
    class R extends ApplicationRecord("users") {
      static {
        this.hook("relation:where", ({ data }) => {
          keys = Object.keys(data).sort();
        });
      }
    }
    R.all().toSql();
    expect(keys).toEqual(["conditions", "distinct", "extensions", "includes", "limit", "none", "offset", "order", "select"].sort());
  });

  it("model:tableName gets the class name just below the declaration class", () => {
    const seen: string[] = [];
    class NamingBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.hook("model:tableName", (context) => {
          seen.push(context.className);
          context.tableName = "users";
        });
      }
    }
    const NamingRecord = defineApplicationRecord(schema, NamingBase);
    class Person extends NamingRecord({ id: "string", name: "string" }) {}
    class Child extends Person {}
    expect(Child.tableName).toBe("users");
    expect(seen.at(-1)).toBe("Person");
  });
});

describe("guide: Plugin API table", () => {
  it("castAs, readAsCondition, countStatement, countOf, anyMatch (without calculations)", async () => {
    expect(castAs("integer", " 12 ")).toBe(12);
    expect(castAs("integer", "x")).toBeUndefined();
    expect(readAsCondition(User, "name", 5)).toBe("5");
    expect(readAsCondition(User, "age", "x")).toBeUndefined();
    class KernelBase extends Base {
      static override binding = "DB";
    }
    const KernelRecord = defineApplicationRecord(schema, KernelBase);
    class U extends KernelRecord("users") {}
    await User.createOrThrow({ name: "a" });
    // the typed Relation of a Model is not the plugin API's `Relation` type: plugins call these with `this`
    type R = Parameters<typeof countOf>[0];
    expect(await countOf(U.all() as unknown as R)).toBe(1);
    expect(await anyMatch(U.where({ name: "a" }) as unknown as R)).toBe(true);
    expect(countStatement(U.all() as unknown as R).toSql().sql).toContain("COUNT");
  });

  it("isPlainObject: plain objects, Object.create ones too, and no class instances", () => {
    expect([{}, Object.create({ a: 1 }), Object.create(null)].map(isPlainObject)).toEqual([true, true, true]);
    expect([new Map(), [], new URLSearchParams(), User.build(), null, "x"].map(isPlainObject)).toEqual([false, false, false, false, false, false]);
  });
});

describe("guide: Associations with keys the database assigns", () => {
  it("each level is written in its own batch after the level above", async () => {
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const author = Author.build({ name: "A" });
      author.books().build({ title: "B1" });
      author.books().build({ title: "B2" });
      await author.saveOrThrow();
    });
    expect(roundTrips.map((trip) => trip.map((s) => s.split(" (")[0]))).toEqual([[`INSERT INTO "authors"`], [`INSERT INTO "books"`, `INSERT INTO "books"`]]);
  });

  it("a refused child refuses the owner's save before anything is written", async () => {
    const StrictBook = class Book extends Model({ id: "integer", authorId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
      static override binding = "DB";
      static {
        this.validates("title", { length: { minimum: 3 } });
      }
    };
    class Owner extends Model({ id: "integer", name: { type: "string", null: false } }) {
      static override binding = "DB";
      static override tableName = "authors";
      books = hasMany(StrictBook, { foreignKey: "authorId" });
    }
    const owner = Owner.build({ name: "A" });
    owner.books().build({ title: "x" });
    expect(await owner.save()).toBe(false);
    expect(owner.errors.fullMessages().join()).toContain("Book is invalid");
    const error = await rejectionOf(owner.saveOrThrow());
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(error.message).toContain("Book");
    expect(await countRows("authors")).toBe(0);
  });
});

describe("guide: Associations, scope and dependent", () => {
  it("deleteAll keeps to the scope; rows outside it make the REFERENCES constraint refuse the owner's DELETE", async () => {
    class Owner extends ApplicationRecord("users") {
      drafts = hasMany(Post, { foreignKey: "userId", dependent: "deleteAll", scope: (q) => q.where({ published: false }) });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Post.createOrThrow({ userId: o.id, title: "draft" });
    await Post.createOrThrow({ userId: o.id, title: "pub", published: true });
    const error = await rejectionOf(o.destroy());
    expect(error.message).toMatch(/FOREIGN KEY/);
    expect(await countRows("posts")).toBe(2);
  });

  it("nullify: one UPDATE, no timestamps; deleteAll: one DELETE", async () => {
    const { Review } = await import("./models/association-fixtures.js");
    class Owner extends ApplicationRecord("users") {
      reviews = hasMany(Review, { foreignKey: "userId", dependent: "nullify" });
    }
    const o = await Owner.createOrThrow({ name: "x" });
    await Review.createOrThrow({ userId: o.id, body: "a" });
    await Review.createOrThrow({ userId: o.id, body: "b" });
    const { binding, roundTrips } = recordingRoundTrips();
    const loaded = await connect(binding).model(Owner).find(o.id);
    roundTrips.length = 0;
    await loaded.destroy();
    expect(roundTrips).toEqual([[`UPDATE "reviews" SET "user_id" = ? WHERE "user_id" = ?`, `DELETE FROM "users" WHERE "id" = ?`]]);
  });

  it("a parent already writing the record as its child is not saved twice", async () => {
    const w = Writer.build({ name: "w" });
    const e = w.posts().build({ title: "t" });
    e.author.set(w);
    const { binding, roundTrips } = recordingRoundTrips();
    await connect(binding).batch([w.toSave()]);
    expect(roundTrips.flat().filter((s) => s.startsWith(`INSERT INTO "users"`))).toHaveLength(1);
    expect(roundTrips.flat().filter((s) => s.startsWith(`INSERT INTO "posts"`))).toHaveLength(1);
  });

  it("includes works with first() and paginate", async () => {
    const w = await Writer.createOrThrow({ name: "w" });
    await Entry.createOrThrow({ userId: w.id, title: "t" });
    const first = await Entry.includes("author").first();
    expect(first!.author.get()!.name).toBe("w");
    const page = await Entry.includes("author").paginate();
    expect(page.records[0]!.author.get()!.name).toBe("w");
  });
});

describe("guide: The database, prose claims", () => {
  it("db.model(User) is a cached view", () => {
    const db = connect(env.DB);
    expect(db.model(User)).toBe(db.model(User));
  });

  it("query events filter null of a filtered attribute in an update", async () => {
    const { db, events } = listen();
    const u = await db.model(User).createOrThrow({ name: "x", email: "a@b.c" });
    await u.update({ email: null });
    expect(events.at(-1)!.params[0]).toBe("[FILTERED]");
    await db.model(User).where({ email: ["a", "b"] }).toArray();
    expect(events.at(-1)!.params).toEqual(['["[FILTERED]","[FILTERED]"]']);
  });
});

// ---- Fourth round: the plugin API ----------------------------------------------------------------------------

describe("guide: Writing a plugin, prose claims", () => {
  it("the same name registered twice on a class chain is a no-op; setup runs once with the registering class", () => {
    const calls: string[] = [];
    const setups: Function[] = [];
    const once = definePlugin({
      name: "guide-claims-once",
      hooks: {
        "record:initialize"() {
          calls.push("init");
        },
      },
      setup(model) {
        setups.push(model);
      },
    });
    class OnceBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(once);
      }
    }
    const OnceRecord = defineApplicationRecord(schema, OnceBase);
    class Twice extends OnceRecord("users") {
      static {
        this.use(once);
      }
    }
    Twice.build({ name: "x" });
    expect(calls).toEqual(["init"]);
    expect(setups).toEqual([OnceBase]);
  });

  it("relation methods see this.model, this.data, this.with, this.toSelect, this.database, this.run", async () => {
    const seen: Record<string, unknown> = {};
    const probe = definePlugin({
      name: "guide-claims-probe",
      relationMethods: {
        async probe(this: any) {
          const m = this.model;
          seen["model"] = [m.name, m.tableName, m.quotedTable, m.primaryKey.name, Array.isArray(m.attributes), m.byName instanceof Map, m.byColumn instanceof Map];
          seen["data"] = typeof this.data;
          const limited = this.with({ limit: 1 });
          seen["sql"] = limited.toSelect().toSql().sql;
          seen["db"] = typeof this.database();
          return this.run(limited.toSelect());
        },
      },
    });
    class ProbeBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(probe);
      }
    }
    const ProbeRecord = defineApplicationRecord(schema, ProbeBase);
    class P extends ProbeRecord("users") {}
    await User.createOrThrow({ name: "a" });
    const rows = (await (P as unknown as { probe(): Promise<unknown[]> }).probe()) as unknown[];
    expect(rows).toHaveLength(1);
    expect(seen).toEqual({
      model: ["P", "users", `"users"`, "id", true, true, true],
      data: "object",
      sql: `SELECT * FROM "users" LIMIT 1`,
      db: "object",
    });
  });

  it("record:serialize may change json; record:inspect entries are { attribute, shown, note }", () => {
    let entryKeys: string[] = [];
    class S extends ApplicationRecord("users") {
      static {
        this.hook("record:serialize", ({ json }) => {
          json["extra"] = 1;
        });
        this.hook("record:inspect", ({ entries }) => {
          entryKeys = Object.keys(entries[0]!).sort();
        });
      }
    }
    const rec = S.build({ name: "x" });
    expect((rec.toJSON() as Record<string, unknown>)["extra"]).toBe(1);
    String(rec);
    expect(entryKeys).toEqual(["attribute", "note", "shown"]);
  });

  it("a write pushed to batch that is refused refuses the save: false, reasons on base", async () => {
    class Strict extends ApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    class Pusher extends ApplicationRecord("users") {
      static {
        this.hook("record:beforeWrite", ({ batch }) => {
          batch.push(Strict.build({ name: "other" }).toSave());
        });
      }
    }
    const p = Pusher.build({ name: "x" });
    expect(await p.save()).toBe(false);
    expect(p.errors.toArray()[0]!.attribute).toBe("base");
    expect(await countRows("users")).toBe(0);
  });

  it("what a record:write hook assigns is taken back if the write is not made", async () => {
    await User.createOrThrow({ name: "a", email: "a@x.org" });
    class Stamp extends ApplicationRecord("users") {
      static {
        this.hook("record:write", ({ record }) => {
          record.age = 99;
        });
      }
    }
    const s = Stamp.build({ name: "b", email: "a@x.org" });
    await expect(s.save()).rejects.toBeInstanceOf(RecordNotUnique);
    expect(s.age).toBeNull();
  });
});
