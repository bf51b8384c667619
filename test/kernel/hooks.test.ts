import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, Base, calculations, connect, defineApplicationRecord, InvalidModel, Model, type QueryEvent, sql, withDatabase, abort, batch, column, idGeneration, timestamps } from "../../src/index.js";
import { definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { User, ApplicationRecord as FixtureApplicationRecord, schema as fixtureSchema } from "../models/fixtures.js";

beforeEach(resetDatabase);

describe("synchronous hook points", () => {
  it("an error thrown by a synchronous hook propagates to the caller", () => {
    class Strict extends User {
      static {
        this.hook("attribute:assign", ({ attribute, value }) => {
          if (attribute.name === "name" && value === "forbidden") throw new RangeError("no");
        });
      }
    }
    const record = Strict.build({ name: "fine" });
    expect(() => (record.name = "forbidden")).toThrow(RangeError);
    expect(record.name).toBe("fine");
  });

  it("attribute:input sees a value before it is cast, on build, assignment, permit and updateAll; null never reaches it", async () => {
    const seen: unknown[] = [];
    class Grouped extends User {
      static {
        // Digits grouped with commas ("1,000"), which the integer cast refuses, read as the number.
        this.hook("attribute:input", (context) => {
          seen.push(context.value);
          if (context.attribute.name === "age" && typeof context.value === "string") context.value = context.value.replaceAll(",", "");
        });
      }
    }
    expect(Grouped.build({ name: "Ada", age: "1,000" as never }).age).toBe(1000);
    const user = await Grouped.create({ name: "Ada" });
    user.assign({ age: "2,000" as never, email: null });
    expect(user.age).toBe(2000);
    expect(Grouped.permit({ age: "3,000" }, "age")).toEqual({ age: 3000 });
    await Grouped.where({ id: user.id }).updateAll({ age: "4,000" as never });
    expect((await Grouped.find(user.id)).age).toBe(4000);
    expect(seen).toContain("4,000");
    expect(seen).not.toContain(null);
  });

  it("model:finalize errors reach the first use (a scope named like a Model static)", async () => {
    // Declared around the type system: a scope named like a Model static is a compile error as well.
    class Clashing extends User {}
    Object.defineProperty(Clashing, "exists", { value: Clashing.scope((q) => q) });
    // A static that queries rejects (it does not throw) when the Model fails its first-use checks.
    await expect(Clashing.count()).rejects.toThrow(InvalidModel);
    await expect(Clashing.find("x")).rejects.toThrow(/scope exists/);
    // So do the statics of plugins' async Relation methods.
    await expect(Clashing.updateAll({ name: "x" })).rejects.toThrow(InvalidModel);
    await expect(Clashing.paginate()).rejects.toThrow(InvalidModel);
    expect(() => Clashing.where({ name: "x" })).toThrow(InvalidModel);
  });

  it("relation:where hooks that bind values apply to find, reload and count", async () => {
    const alive = await User.create({ name: "alive" });
    const hidden = await User.create({ name: "hidden" });
    class Visible extends User {
      static {
        this.hook("relation:where", ({ parts }) => {
          parts.where.push(`"name" <> ${parts.params.bind("hidden")}`);
        });
      }
    }
    expect((await Visible.find(alive.id)).name).toBe("alive");
    await expect(Visible.find(hidden.id)).rejects.toThrow(/no record/);
    const record = await Visible.find(alive.id);
    await expect(record.reload()).resolves.toBe(record);
    expect(await Visible.count()).toBe(1);
    expect(await Visible.where(sql`1 = 1`).pluck("name")).toEqual(["alive"]);
  });
});

describe("relation:start", () => {
  it("runs once for each new Relation of every record (a static query, all()), never for one made from another", () => {
    const started: string[] = [];
    class Labelled extends User {
      static {
        this.hook("relation:start", (context) => {
          started.push(context.relation.model.name);
          context.relation = context.relation.withExtension("label", "x");
        });
      }
    }
    const relation = Labelled.where({ name: "Ada" }).order({ id: "asc" }).limit(1);
    expect(started).toEqual(["Labelled"]);
    expect(relation.extension("label")).toBe("x");
    Labelled.all();
    expect(started).toEqual(["Labelled", "Labelled"]);
  });

  it("refuses a hook that leaves anything but a Relation made from the one it got, naming the Model", () => {
    class Replaced extends User {
      static {
        this.hook("relation:start", (context) => {
          context.relation = User.all() as never;
        });
      }
    }
    expect(() => Replaced.all()).toThrow(new TypeError("Replaced: a relation:start hook must leave a Relation of Replaced made from the one it got"));
  });
});

describe("relation compile hooks' context", () => {
  it("gives each of the four hooks the ResolvedModel it compiles for, also through a plugin on a base class", () => {
    const seen: [string, string, string][] = [];
    const plugin = definePlugin({
      name: "compile-context-model",
      hooks: Object.fromEntries(
        (["relation:select", "relation:where", "relation:order", "relation:paging"] as const).map((name) => [
          name,
          ({ model }: { model: { name: string; quotedTable: string } }) => void seen.push([name, model.name, model.quotedTable]),
        ]),
      ),
    });
    class Seeing extends User {
      static {
        this.use(plugin);
      }
    }
    Seeing.where({ name: "x" }).toSql();
    expect(seen).toEqual([
      ["relation:select", "Seeing", `"users"`],
      ["relation:where", "Seeing", `"users"`],
      ["relation:order", "Seeing", `"users"`],
      ["relation:paging", "Seeing", `"users"`],
    ]);
  });
});

describe("a plugin's appliesTo", () => {
  function auditing(log: string[]) {
    const asked: string[] = [];
    const plugin = definePlugin({
      name: "auditing",
      appliesTo: (model: { name: string; audited?: boolean }) => {
        asked.push(model.name);
        return model.audited === true;
      },
      hooks: {
        "model:finalize": (model) => void log.push(`finalize ${model.name}`),
        "record:initialize": ({ record }) => void log.push(`initialize ${record.constructor.name}`),
        "record:afterSave": ({ record }) => void log.push(`saved ${record.constructor.name}`),
      },
    });
    return { plugin, asked };
  }

  it("keeps the plugin's hooks only on the Models it applies to, asking once per Model", async () => {
    const log: string[] = [];
    const { plugin, asked } = auditing(log);
    class AuditBase extends User {
      static {
        this.use(plugin);
      }
    }
    class Audited extends AuditBase {
      static audited = true;
    }
    class Plain extends AuditBase {}
    await Audited.create({ name: "kept" });
    await Plain.create({ name: "skipped" });
    Plain.build();
    expect(log).toEqual(["finalize Audited", "initialize Audited", "saved Audited", "finalize Plain"]);
    expect(asked).toEqual(["Audited", "Plain"]);
  });

  it("leaves hooks added with Model.hook in place", async () => {
    const log: string[] = [];
    const { plugin } = auditing(log);
    class Hooked extends User {
      static {
        this.use(plugin);
        this.hook("record:afterSave", () => void log.push("own hook"));
      }
    }
    await Hooked.create({ name: "x" });
    expect(log).toEqual(["finalize Hooked", "own hook"]);
  });
});

describe("record methods a plugin adds", () => {
  it("are names an attribute cannot take, like the kernel's own record methods", async () => {
    const archiving = definePlugin({
      name: "archiving",
      setup(base: { prototype: Record<string, unknown> }) {
        base.prototype["archive"] = function archive() {};
      },
    });
    class ArchivingRecord extends ActiveRecord {
      static {
        this.use(archiving);
      }
    }
    class Shelf extends defineApplicationRecord({}, ArchivingRecord)({ id: "string", archive: "boolean" }) {
      static override tableName = "notes";
    }
    await expect(Shelf.first()).rejects.toThrow(/Shelf: attribute archive has the name of a record method/);
    class Linked extends Model({ id: "string", reloadAssociation: "string" }) {
      static override tableName = "notes";
    }
    await expect(Linked.first()).rejects.toThrow(InvalidModel);
  });
});

describe("the database query hook", () => {
  it("db.hooks.hook('query', fn) receives events without onQuery", async () => {
    const db = connect(env.DB);
    const events: QueryEvent[] = [];
    db.hooks.hook("query", (event) => void events.push(event));
    await db.model(User).count();
    expect(events).toHaveLength(1);
  });

  it("hooks.hook refuses what is no function, naming the hook, and a name of no hook point: neither would ever run", () => {
    const db = connect(env.DB);
    expect(() => db.hooks.hook("query", 5 as never)).toThrow(new TypeError('hooks.hook("query") takes a function, not 5'));
    expect(() => db.hooks.hook("qeury" as never, (() => {}) as never)).toThrow(new TypeError('hooks.hook takes the name of a hook point, not "qeury"'));
    const { hooks } = User.all().model;
    expect(() => hooks.hook("record:initialise" as never, (() => {}) as never)).toThrow(/^hooks\.hook takes the name of a hook point, not "record:initialise"$/);
    expect(() => hooks.hook("record:initialize", null as never)).toThrow(/^hooks\.hook\("record:initialize"\) takes a function, not null$/);
  });

  it("a failed query still sends its event, carrying the error that is thrown", async () => {
    const events: QueryEvent[] = [];
    const db = connect(env.DB, { onQuery: (event) => void events.push(event) });
    await db.model(User).create({ name: "a", email: "same@x.io" });
    const error = await db.model(User).create({ name: "b", email: "same@x.io" }).catch((caught: unknown) => caught);
    expect(events).toHaveLength(2);
    expect(events[1]!.error).toBe(error);
    expect(events[1]!.sql).toMatch(/^INSERT INTO "users"/);
    expect(events[0]!.error).toBeUndefined();
  });

  it("an error thrown by a query listener propagates", async () => {
    const db = connect(env.DB, {
      onQuery: () => {
        throw new RangeError("listener failed");
      },
    });
    await expect(db.model(User).count()).rejects.toThrow(RangeError);
  });
});

describe("batch results and printing", () => {
  it("db.batch resolves to the records of toSave() and toDestroy()", async () => {
    const db = connect(env.DB);
    const kept = db.model(User).build({ name: "kept" });
    const gone = await db.model(User).create({ name: "gone" });
    const [first, second] = await db.batch([kept.toSave(), gone.toDestroy()]);
    expect(first).toBe(kept);
    expect(second).toBe(gone);
    expect(gone.isDestroyed()).toBe(true);
  });

  it("printing a Relation hides filtered values; toSql() does not", () => {
    const relation = User.where({ email: "ada@x.io", name: "Ada" });
    expect(String(relation)).toBe(`#<Relation User SELECT * FROM "users" WHERE "email" = ?1 AND "name" = ?2 ["[FILTERED]","Ada"]>`);
    expect(relation.toSql().params).toEqual(["ada@x.io", "Ada"]);
  });

  it("printing a partial record shows (changed) for an unloaded column", async () => {
    await User.create({ name: "Ada" });
    const [partial] = await User.select("name").toArray();
    expect(String(partial)).toContain("age: (changed)");
    expect(String(partial)).toContain(`name: "Ada"`);
  });
});

describe("upsert", () => {
  it("updates only the attributes given, never defaults or the key", async () => {
    const user = await User.create({ name: "Ada", admin: true, email: "ada@x.io" });
    await User.upsert({ id: user.id, name: "Ada L" });
    await user.reload();
    expect([user.name, user.admin]).toEqual(["Ada L", true]);
    await User.upsert({ name: "Ada K", email: "ada@x.io" }, { uniqueBy: ["email"] });
    await user.reload();
    expect(user.name).toBe("Ada K");
    expect(await User.count()).toBe(1);
  });
});

describe("table naming as a plugin", () => {
  const columns = { id: "string", name: "string" } as const;

  it("a Model on Base without tableNaming infers no table: tableName reads empty, the first use throws", async () => {
    class PlainBase extends Base {
      static override binding = "DB";
    }
    class User extends defineApplicationRecord({}, PlainBase)(columns) {}
    expect(User.tableName).toBe("");
    const error = await rejectionOf(User.find("x"));
    expect(error).toBeInstanceOf(InvalidModel);
    expect((error as Error).message).toBe("User has no table name: set static tableName, or register the tableNaming plugin to infer it from the class name");
  });

  it("Models that name their tables need no tableNaming plugin", async () => {
    class PlainBase extends Base {
      static override binding = "DB";
    }
    class Member extends defineApplicationRecord({}, PlainBase)(columns) {
      static override tableName = "users";
    }
    const { db, sqls } = listen();
    await withDatabase(db, () => Member.findBy({ name: "nobody" }));
    expect(sqls()).toEqual(['SELECT * FROM "users" WHERE "name" = ?1 LIMIT 1']);
  });

  it("a plugin on model:tableName names tables its own way; the last hook to set it wins", () => {
    const prefixed = definePlugin({
      name: "prefixedTables",
      hooks: {
        "model:tableName"(context) {
          context.tableName = `app_${context.tableName}`;
        },
      },
    });
    class PrefixedBase extends ActiveRecord {
      static {
        this.use(prefixed);
      }
    }
    class BlogPost extends defineApplicationRecord({}, PrefixedBase)(columns) {}
    expect(BlogPost.tableName).toBe("app_blog_posts");
  });
});

describe("calculations as a plugin", () => {
  it("count, pluck and exists are on Models whose base registers calculations, and not otherwise", async () => {
    class PlainBase extends Base {
      static override binding = "DB";
    }
    class CountingBase extends Base {
      static override binding = "DB";
      static {
        this.use(calculations);
      }
    }
    class Plain extends defineApplicationRecord({}, PlainBase)({ id: "string", name: "string" }) {
      static override tableName = "users";
    }
    class Counting extends defineApplicationRecord({}, CountingBase)({ id: "string", name: "string" }) {
      static override tableName = "users";
    }
    expect("count" in Plain).toBe(false);
    expect("count" in Plain.all()).toBe(false);
    await connect(env.DB).model(User).create({ name: "Ada" });
    expect(await Counting.where({ name: "Ada" }).count()).toBe(1);
    expect(await Counting.pluck("name")).toEqual(["Ada"]);
    expect(await Counting.exists({ name: "Grace" })).toBe(false);
  });
});

// ---- Hook catalogue -------------------------------------------------------------------------------------------

describe("guide: The hook catalogue", () => {
  it("abort() defaults to the reason 'aborted'", async () => {
    class Stop extends FixtureApplicationRecord("users") {
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
    class Used extends FixtureApplicationRecord("users") {}
    Used.build({ name: "x" });
    expect(() => Used.hook("record:beforeSave", () => {})).toThrow(InvalidModel);
  });

  it("record:hydrate runs for loaded rows and reload, not for the RETURNING row of an insert", async () => {
    let hydrated = 0;
    class Hyd extends FixtureApplicationRecord("users") {
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
    class W extends FixtureApplicationRecord("users") {
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

describe("guide: The hook catalogue, record:assign", () => {
  /** Users who take a `nickname` that is no attribute: a hook takes it out and writes it into `name`, after the attributes. */
  class Nicknamed extends FixtureApplicationRecord("users") {
    static {
      this.hook("record:assign", (context) => {
        if (!context.names.includes("nickname")) return;
        const nickname = context.attributes["nickname"];
        if (typeof nickname !== "string") throw new TypeError(`Nicknamed.${context.method}: nickname takes text`);
        context.names = context.names.filter((name) => name !== "nickname");
        context.after.push(() => context.record.writeAttribute("name", `${context.record.name} "${nickname}"`));
      });
    }
  }

  it("a hook takes out the names it assigns and assigns them once the attributes are set", async () => {
    const user = Nicknamed.build({ nickname: "Ace", name: "Ada" } as never);
    expect(user.name).toBe(`Ada "Ace"`);
    await user.save();
    await user.update({ name: "Bo", nickname: "B" } as never);
    expect((await Nicknamed.find(user.id)).name).toBe(`Bo "B"`);
  });

  it("what the hook refuses sets nothing; a name it leaves that no attribute has is UnknownAttribute", () => {
    const user = Nicknamed.build({ name: "Ada" });
    expect(() => user.assign({ name: "Bo", nickname: 5 } as never)).toThrow(new TypeError("Nicknamed.assign: nickname takes text"));
    expect(() => user.assign({ name: "Bo", other: 5 } as never)).toThrow("Nicknamed has no attribute other");
    expect(user.name).toBe("Ada");
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
    class Traced extends FixtureApplicationRecord("users") {
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

  it("relation hooks get data with the fields listed, frozen", () => {
    let keys: string[] = [];
    let limit: number | undefined;
    class R extends FixtureApplicationRecord("users") {
      static {
        this.hook("relation:where", ({ data }) => {
          keys = Object.keys(data).sort();
          limit = Object.isFrozen(data) ? data.limit : undefined;
        });
      }
    }
    R.limit(2).toSql();
    expect(limit).toBe(2);
    expect(keys).toEqual(["columns", "conditions", "distinct", "extensions", "includes", "limit", "none", "offset", "order", "select"].sort());
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
    const NamingRecord = defineApplicationRecord(fixtureSchema, NamingBase);
    class Person extends NamingRecord({ id: "string", name: "string" }) {}
    class Child extends Person {}
    expect(Child.tableName).toBe("users");
    expect(seen.at(-1)).toBe("Person");
  });
});
