/** The plugin API as the guide describes it: per-Model state, the plugin API table, smaller bundles, and the soft delete and audit log examples. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, Base, batch, belongsTo, combining, defineApplicationRecord, hasMany, idGeneration, IncompatibleRelation, InvalidModel, Model, RecordNotDestroyed, RecordNotUnique, sql, column, timestamps, withDatabase, softDelete, defaultScopes } from "../../src/index.js";
import { declareDefaultScope, declareModelState, definePlugin, type PluginMethod, anyMatch, castAs, countOf, countStatement, isPlainObject, joinSelect, ParamWriter, prepareRelationNow, readAsCondition, selectParts, subquery } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { attrReadonly, readonlyAttributes } from "../helpers/guide-plugins.js";
import { rejectionOf } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { ApplicationRecord as FixtureApplicationRecord, schema as fixtureSchema, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

// ---- Associations ---------------------------------------------------------------------------------------------

class Writer extends FixtureApplicationRecord("users") {
  posts = hasMany(Entry, { dependent: "destroy", foreignKey: "userId" });
}

class Entry extends FixtureApplicationRecord("posts") {
  author = belongsTo(Writer, { foreignKey: "userId" });
}

// ---- Writing a plugin -----------------------------------------------------------------------------------------

describe("guide: Per-Model state", () => {
  it("a Model registering the readonly-attributes plugin itself", async () => {
    class Writer extends FixtureApplicationRecord("users") {
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
    class Used extends FixtureApplicationRecord("users") {}
    Used.build({ name: "x" });
    expect(() => attrReadonly(Used, "name")).toThrow(InvalidModel);
  });

  it("Base.use after a subclass declared is refused, for every kind of plugin part; before, each part reaches the Model", () => {
    const marks: string[] = [];
    const parts = {
      hook: { hooks: { "record:initialize": () => void marks.push("hook") } },
      "Relation method": { relationMethods: { marked: () => "marked" } },
      static: { setup: (base: Record<string, unknown>) => void (base["markedStatic"] = () => "static") },
      "record method": { setup: (base: { prototype: Record<string, unknown> }) => void (base.prototype["markedRecord"] = () => "record") },
      "static wrap": { wrap: { static: { build: (next: PluginMethod) => function (this: unknown, ...args: unknown[]) { marks.push("static wrap"); return next.apply(this, args); } } } },
      "record wrap": { wrap: { record: { isNewRecord: (next: PluginMethod) => function (this: unknown) { marks.push("record wrap"); return next.call(this); } } } },
      "Relation wrap": { wrap: { relation: { where: (next: PluginMethod) => function (this: unknown, ...args: unknown[]) { marks.push("Relation wrap"); return next.apply(this, args); } } } },
    };
    for (const [part, definition] of Object.entries(parts)) {
      class Later extends ActiveRecord {
        static override binding = "DB";
      }
      const LaterRecord = defineApplicationRecord(fixtureSchema, Later);
      const plugin = definePlugin({ name: `late ${part}`, ...definition } as never);
      class Declared extends LaterRecord("users") {
        static {
          this.hook("record:afterSave", () => {});
        }
      }
      // A named subclass is named; before it declared, the class ApplicationRecord("users") made is.
      expect(() => Later.use(plugin), part).toThrow(new InvalidModel(`Later.use: plugin late ${part} would not reach Declared, a subclass declared before it; register plugins before declaring subclasses`));
      void Declared;
    }
    class Later extends ActiveRecord {}
    const LaterRecord = defineApplicationRecord(fixtureSchema, Later);
    class Made extends LaterRecord("users") {}
    expect(() => Later.use(definePlugin({ name: "late" }))).toThrow(new InvalidModel(`Later.use: plugin late would not reach the Model of table users, a subclass declared before it; register plugins before declaring subclasses`));
    // A subclass used (its first use copies the declaration) is refused the same way, as is a use on a class between.
    class Middle extends ActiveRecord {}
    class Used extends defineApplicationRecord(fixtureSchema, Middle)("users") {}
    Used.build({ name: "x" });
    expect(() => ActiveRecord.use(definePlugin({ name: "later still" }))).toThrow(/^ActiveRecord\.use: plugin later still would not reach \w+, a subclass declared before it/);
    expect(() => Middle.use(definePlugin({ name: "late" }))).toThrow(/^Middle\.use: plugin late would not reach Used, a subclass/);
    // Registering a plugin the class has already is still a no-op; a Model made after a use gets every part.
    expect(() => Later.use(combining)).not.toThrow();
    void Made;
    class Early extends ActiveRecord {
      static override binding = "DB";
    }
    for (const [part, definition] of Object.entries(parts)) Early.use(definePlugin({ name: `early ${part}`, ...definition } as never));
    class After extends defineApplicationRecord(fixtureSchema, Early)("users") {}
    const record = After.build({ name: "x" }) as After & { markedRecord(): string };
    record.isNewRecord();
    After.where({ name: "x" });
    expect(marks).toEqual(["static wrap", "hook", "record wrap", "Relation wrap"]);
    expect([(After.all() as unknown as { marked(): string }).marked(), (After as unknown as { markedStatic(): string }).markedStatic(), record.markedRecord()]).toEqual(["marked", "static", "record"]);
  });

  it("a hook or a plugin's declaration on a class after a subclass declared is refused, as use is; the subclass keeps what it had", async () => {
    class Parent extends ActiveRecord {
      static override binding = "DB";
    }
    const ParentRecord = defineApplicationRecord(fixtureSchema, Parent);
    class Child extends ParentRecord("users") {
      static {
        this.validates("name", { presence: true });
      }
    }
    expect(() => Parent.hook("record:beforeSave", () => {})).toThrow(
      new InvalidModel("Parent.hook: record:beforeSave would not reach Child, a subclass declared before it; declare hooks before declaring subclasses"),
    );
    // Callbacks and validations are hooks and plugin state: each is refused the same way, never left off the subclass.
    expect(() => (Parent as unknown as typeof Child).beforeSave(() => {})).toThrow(/^Parent\.hook: record:beforeSave would not reach Child/);
    expect(() => (Parent as unknown as typeof Child).validates("email", { presence: true })).toThrow(
      new InvalidModel("Parent: validations would not reach Child, a subclass declared before it; declare on Parent before declaring its subclasses"),
    );
    expect(() => (Parent as unknown as typeof Child).defaultScope((q) => q.where({ name: "x" }))).toThrow(/^Parent: defaultScopes would not reach Child/);
    const child = Child.build({ name: "" });
    expect(await child.save()).toBe(false);
    expect(child.errors.fullMessages()).toEqual(["Name can't be blank"]);
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
      expect(sqls().at(-1)).toBe(`UPDATE "guide_articles" SET "deleted_at" = ?1, "updated_at" = ?2 WHERE "id" = ?3`);
      expect(article.isDestroyed()).toBe(true);
      expect(article.deletedAt).toBeInstanceOf(Date);
      expect(await Article.findBy({ title: "Old news" })).toBeNull();
      expect(sqls().at(-1)).toContain(`WHERE "title" = ?1 AND "deleted_at" IS NULL`);
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

describe("guide: Example: audit log (the plugin itself is run by plugin-examples.test.ts)", () => {
  it("an attribute named changes cannot be declared (InvalidModel)", () => {
    class Bad extends Model({ id: "string", changes: "json" }) {
      static override tableName = "guide_audit_log_entries";
    }
    expect(() => Bad.build()).toThrow(InvalidModel);
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
    const KernelRecord = defineApplicationRecord(fixtureSchema, KernelBase);
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
    class Bare extends defineApplicationRecord(fixtureSchema, KernelBase)("users") {}
    class Combined extends defineApplicationRecord(fixtureSchema, CombiningBase)("users") {}
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

  it("a plugin's default scope (declareDefaultScope) without the defaultScopes plugin is refused, not silently never applied", () => {
    const hidingArchived = definePlugin({
      name: "hiding-archived",
      setup(model) {
        declareDefaultScope(model, { name: "hidingArchived", body: (q) => q.where({ age: null }) });
      },
    });
    expect(() => {
      class KernelBase extends Base {
        static {
          this.use(hidingArchived);
        }
      }
      return KernelBase;
    }).toThrow(
      new InvalidModel(
        "KernelBase: the default scope hidingArchived would narrow no query; register the defaultScopes plugin on KernelBase or above it first",
      ),
    );
    class ScopingBase extends Base {
      static {
        this.use(defaultScopes);
      }
    }
    class Scoped extends ScopingBase {
      static {
        this.use(hidingArchived);
      }
    }
    expect(Scoped.name).toBe("Scoped");
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
    const KernelRecord = defineApplicationRecord(fixtureSchema, KernelBase);
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
    const OnceRecord = defineApplicationRecord(fixtureSchema, OnceBase);
    class Twice extends OnceRecord("users") {
      static {
        this.use(once);
      }
    }
    Twice.build({ name: "x" });
    expect(calls).toEqual(["init"]);
    expect(setups).toEqual([OnceBase]);
  });

  it("relation methods see this.model, this.description, this.with, this.toSelect, this.database, this.run", async () => {
    const seen: Record<string, unknown> = {};
    const probe = definePlugin({
      name: "guide-claims-probe",
      relationMethods: {
        async probe(this: any) {
          const m = this.model;
          seen["model"] = [m.name, m.tableName, m.quotedTable, m.primaryKey.name, Array.isArray(m.attributes), m.byName instanceof Map, m.byColumn instanceof Map];
          seen["description"] = [this.description.limit, this.description.conditions.length, m.model === P];
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
    const ProbeRecord = defineApplicationRecord(fixtureSchema, ProbeBase);
    class P extends ProbeRecord("users") {}
    await User.createOrThrow({ name: "a" });
    const rows = (await (P as unknown as { probe(): Promise<unknown[]> }).probe()) as unknown[];
    expect(rows).toHaveLength(1);
    expect(seen).toEqual({
      model: ["P", "users", `"users"`, "id", true, true, true],
      description: [undefined, 0, true],
      sql: `SELECT * FROM "users" LIMIT 1`,
      db: "object",
    });
  });

  it("record:serialize may change json; record:inspect entries are { attribute, shown, note }", () => {
    let entryKeys: string[] = [];
    class S extends FixtureApplicationRecord("users") {
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
    class Strict extends FixtureApplicationRecord("users") {
      static {
        this.validates("email", { presence: true });
      }
    }
    class Pusher extends FixtureApplicationRecord("users") {
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
    class Stamp extends FixtureApplicationRecord("users") {
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

describe("guide: Plugin API: subquery", () => {
  it("a subquery in an sql fragment is compiled at each query, with its Model's relation hooks, its values bound in place", async () => {
    class Kept extends Model({ id: "integer", title: { type: "string", null: false }, deletedAt: "datetime" }) {
      static override tableName = "trashable_articles";
      static override binding = "DB";
      static {
        this.use(softDelete);
      }
    }
    const [a, b] = [await Kept.create({ title: "a" }), await Kept.create({ title: "b" })];
    await b.destroy();
    // Compiled a Relation prepared as every compile path prepares one: its default scope applied among its conditions.
    const titled = prepareRelationNow(Kept.where({ title: ["a", "b"] }), "load", "keptIds", "use relationSubquery instead");
    const keptIds = subquery((params) => joinSelect({ ...selectParts(titled.description, titled.model, params), columns: `"id"` }));
    const { events, db } = listen();
    const kept = db.model(Kept).where(sql`${column("id")} IN ${keptIds} AND ${column("title")} <> ${"z"}`);
    expect((await kept.toArray()).map((record) => record.id)).toEqual([a.id]);
    expect(events[0]!.sql).toBe(
      `SELECT * FROM "trashable_articles" WHERE ("id" IN (SELECT "id" FROM "trashable_articles" WHERE "title" IN (SELECT value FROM json_each(?1)) AND "deleted_at" IS NULL) AND "title" <> ?2) AND "deleted_at" IS NULL`,
    );
    expect(events[0]!.params).toEqual([`["a","b"]`, "z"]);
  });

  it("a Relation compiled without the prepare stage keeps its default scope, once; refused where another plugin prepares", () => {
    class Kept extends Model({ id: "integer", title: { type: "string", null: false }, deletedAt: "datetime" }) {
      static override tableName = "trashable_articles";
      static override binding = "DB";
      static {
        this.use(softDelete);
      }
    }
    const unprepared = Kept.where({ title: "a" });
    const params = new ParamWriter();
    expect(selectParts(unprepared.description, unprepared.model, params).where).toEqual([`"title" = ?1`, `"deleted_at" IS NULL`]);
    class Prepared extends Kept {
      static {
        this.hook("relation:prepare", () => {});
      }
    }
    const refused = Prepared.where({ title: "a" });
    expect(() => selectParts(refused.description, refused.model)).toThrow(
      new TypeError("Prepared: a Relation of Prepared was compiled without the prepare stage, which applies its default scope; prepare it first (prepareRelation, prepareRelationNow)"),
    );
  });

  it("refuses what is not a function, naming subquery", () => {
    expect(() => subquery("SELECT 1" as never)).toThrow(new TypeError(`subquery takes a function that compiles a SELECT, not "SELECT 1"`));
  });
});

describe("a plugin definition is checked where it is made: nothing in it is silently ignored", () => {
  const refusals: [string, () => unknown, string][] = [
    ["a misspelt hook point", () => definePlugin({ name: "p1", hooks: { "record:initialise": () => {} } as never }), `definePlugin("p1"): hooks: "record:initialise" is not a hook point (see the hook catalogue)`],
    ["a hook that is no function", () => definePlugin({ name: "p2", hooks: { "record:initialize": 5 as never } }), `definePlugin("p2"): hooks: record:initialize takes a function, not 5`],
    ["a misspelt key", () => definePlugin({ name: "p3", hook: {} } as never), `definePlugin("p3"): "hook" is not a key of a plugin; the keys are name, hooks, relationMethods, wrap, setup, appliesTo`],
    ["a Relation method that is no function", () => definePlugin({ name: "p4", relationMethods: { foo: 5 as never } }), `definePlugin("p4"): relationMethods: foo takes a function, not 5`],
    ["a setup that is no function", () => definePlugin({ name: "p5", setup: 5 as never }), `definePlugin("p5"): setup takes a function, not 5`],
    ["an appliesTo that is no function", () => definePlugin({ name: "p6", appliesTo: true as never }), `definePlugin("p6"): appliesTo takes a function, not true`],
    ["hooks that are no object", () => definePlugin({ name: "p7", hooks: [] as never }), `definePlugin("p7"): hooks takes an object of functions by name, not []`],
    ["an unknown kind of wrap", () => definePlugin({ name: "p8", wrap: { records: {} } as never }), `definePlugin("p8"): wrap: "records" is not a kind of method; the kinds are relation, static, record`],
    ["no name", () => definePlugin({ hooks: {} } as never), `definePlugin takes a plugin definition { name, hooks?, relationMethods?, wrap?, setup?, appliesTo? }, not {`],
  ];
  for (const [what, define, message] of refusals) {
    it(`${what} throws TypeError naming the plugin and the key`, () => {
      expect(define).toThrow(TypeError);
      expect(define).toThrow(message);
    });
  }

  it("Model.use checks a plugin not made by definePlugin the same way; Model.hook refuses a misspelt point", () => {
    class Base1 extends Base {}
    expect(() => Base1.use({ name: "by-hand", hooks: { "record:initialise": () => {} } } as never)).toThrow(
      new TypeError(`Base1.use("by-hand"): hooks: "record:initialise" is not a hook point (see the hook catalogue)`),
    );
    expect(() => (Base1 as any).hook("record:initialise", () => {})).toThrow(
      new TypeError(`Base1.hook takes the name of a hook point of the catalogue, not "record:initialise"`),
    );
  });

  it("a well-formed plugin is given back as it was made, and runs", async () => {
    const seen: string[] = [];
    const plugin = definePlugin({ name: "well-formed", hooks: { "record:initialize": () => void seen.push("init") }, setup: () => {}, appliesTo: () => true });
    class Seen extends FixtureApplicationRecord("users") {
      static {
        this.use(plugin);
      }
    }
    Seen.build({ name: "x" });
    expect(seen).toEqual(["init"]);
  });
});
