/** Plugins composing methods: wrappers of Relation, static and record methods all run, each calling the one before; providing a method twice is refused. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, auditLog, belongsTo, defineApplicationRecord, hasMany, InvalidModel, multiTenancy, RecordNotSaved, withDatabase, withTenant } from "../../src/index.js";
import { definePlugin, type Plugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf, thrown } from "../helpers/errors.js";
import { frozenInBulk } from "../helpers/guide-plugins.js";
import { listen } from "../helpers/queries.js";
import { auditedSchema } from "../models/audited-tables.js";
import { ApplicationRecord, schema } from "../models/fixtures.js";

beforeEach(resetDatabase);

type Values = Record<string, unknown>;

/** A plugin wrapping `updateAll` that logs the values it receives and adds one of its own before calling the one before. */
function addingToUpdateAll(name: string, added: Values, log: [string, Values][]): Plugin {
  return definePlugin({
    name,
    wrap: {
      relation: {
        updateAll: (next) =>
          async function (values: Values) {
            log.push([name, { ...values }]);
            return next.call(this, { ...values, ...added });
          },
      },
    },
  });
}

function usersWith(...plugins: Plugin[]) {
  return class Users extends ApplicationRecord("users") {
    static {
      this.use(...plugins);
    }
  };
}

describe("wrapping a Relation method", () => {
  const orders = [
    ["sets-age", "sets-score"],
    ["sets-score", "sets-age"],
  ] as const;

  for (const order of orders) {
    it(`two plugins wrapping updateAll both run, the last registered first (${order.join(", then ")})`, async () => {
      const log: [string, Values][] = [];
      const byName = {
        "sets-age": addingToUpdateAll("sets-age", { age: 42 }, log),
        "sets-score": addingToUpdateAll("sets-score", { score: 1.5 }, log),
      };
      const [first, second] = order;
      const User = usersWith(byName[first], byName[second]);
      await User.create({ name: "Ada" });
      await User.create({ name: "Bob" });

      // On a Relation, and as a static, which starts from all().
      expect(await User.where({ name: "Ada" }).updateAll({ email: "ada@example.com" })).toBe(1);
      const added = { "sets-age": { age: 42 }, "sets-score": { score: 1.5 } };
      expect(log).toEqual([
        [second, { email: "ada@example.com" }],
        [first, { email: "ada@example.com", ...added[second] }],
      ]);
      const ada = await User.findByOrThrow({ name: "Ada" });
      expect([ada.email, ada.age, ada.score]).toEqual(["ada@example.com", 42, 1.5]);
      expect((await User.findByOrThrow({ name: "Bob" })).age).toBeNull();

      log.length = 0;
      expect(await User.updateAll({ admin: true })).toBe(2);
      expect(log.map(([name]) => name)).toEqual([second, first]);
      expect(await User.where({ age: 42, score: 1.5, admin: true }).count()).toBe(2);
    });
  }

  it("a wrapper sees what the one before it returned, and may refuse the call", async () => {
    const refusing = definePlugin({
      name: "refuses-empty-updates",
      wrap: {
        relation: {
          updateAll: (next) =>
            async function (values: Values) {
              if (Object.keys(values).length === 0) throw new TypeError("updateAll: nothing to set");
              return `${await next.call(this, values)} rows`;
            },
        },
      },
    });
    const User = usersWith(refusing);
    await User.create({ name: "Ada" });
    expect(await User.updateAll({ age: 3 })).toBe("1 rows");
    expect((await rejectionOf(User.updateAll({}))).message).toBe("updateAll: nothing to set");
  });

  it("wraps a method another plugin provides, and composes with findMany's wrap of the kernel's find", async () => {
    const calls: string[] = [];
    const provides = definePlugin({
      name: "provides-named",
      relationMethods: {
        named(this: { where(conditions: object): unknown }, name: string) {
          calls.push("named");
          return this.where({ name });
        },
      },
    });
    const wrapsNamed = definePlugin({
      name: "wraps-named",
      wrap: {
        relation: {
          named: (next) =>
            function (name: string) {
              calls.push("wraps-named");
              return next.call(this, name.trim());
            },
        },
      },
    });
    const countsFinds = definePlugin({
      name: "counts-finds",
      wrap: {
        relation: {
          find: (next) =>
            function (...ids: unknown[]) {
              calls.push(`find ${ids.length}`);
              return next.apply(this, ids);
            },
        },
      },
    });
    const User = usersWith(provides, wrapsNamed, countsFinds);
    const ada = await User.create({ name: "Ada" });
    const bob = await User.create({ name: "Bob" });
    expect(await (User as any).named("  Ada ").count()).toBe(1);
    expect(calls).toEqual(["wraps-named", "named"]);
    expect((await User.find(ada.id)).name).toBe("Ada");
    expect((await User.find([bob.id, ada.id])).map((user) => user.name)).toEqual(["Bob", "Ada"]);
    expect(calls.slice(2)).toEqual(["find 1", "find 1"]);
  });

  it("a wrapper of where sees the library's own calls as the app's: an association's key, a scope's, the finders'; a preload's subquery is none", async () => {
    const seen: string[][] = [];
    const notesWhere = definePlugin({
      name: "notes-where",
      wrap: {
        relation: {
          where: (next) =>
            function (conditions: object, ...rest: unknown[]) {
              seen.push(Object.keys(conditions));
              return next.call(this, conditions, ...rest);
            },
        },
      },
    });
    class Base extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(notesWhere);
      }
    }
    const WatchedRecord = defineApplicationRecord(schema, Base);
    class Writer extends WatchedRecord("users") {
      posts = hasMany(Article, { foreignKey: "userId" });
      drafts = hasMany(Article, { foreignKey: "userId", scope: (q) => q.where({ published: false }) });
    }
    class Article extends WatchedRecord("posts") {
      writer = belongsTo(Writer, { foreignKey: "userId" });
    }
    const writer = await Writer.createOrThrow({ name: "Ada" });
    const article = await writer.posts().create({ title: "One" });
    const callsOf = async (run: () => Promise<unknown>) => {
      seen.length = 0;
      await run();
      return seen.splice(0);
    };
    expect(await callsOf(() => writer.posts().where({ title: "One" }).toArray())).toEqual([["userId"], ["title"]]);
    expect(await callsOf(() => writer.drafts().where({ title: "One" }).toArray())).toEqual([["published"], ["userId"], ["title"]]);
    expect(await callsOf(() => Article.findBy({ title: "One" }))).toEqual([["title"]]);
    expect(await callsOf(() => article.writer.load())).toEqual([["id"]]);
    expect(await callsOf(() => Writer.includes("posts").toArray())).toEqual([]);
  });

  it("a static query whose Model fails at first use still rejects rather than throws", async () => {
    const wrapsFind = definePlugin({ name: "wraps-find", wrap: { relation: { find: (next) => next } } });
    class Missing extends ApplicationRecord("users") {
      static {
        this.use(wrapsFind);
        this.hiddenAttributes = ["noSuchAttribute"];
      }
    }
    const result = Missing.find("x");
    expect(result).toBeInstanceOf(Promise);
    expect(await rejectionOf(result)).toBeInstanceOf(InvalidModel);
  });
});

describe("guide: Wrapping a method", () => {
  it("frozenInBulk refuses an updateAll setting a frozen attribute, sending nothing, on a Relation and as a static", async () => {
    const User = usersWith(frozenInBulk("email"));
    await User.create({ name: "Ada", email: "ada@example.com" });
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      for (const refused of [User.updateAll({ email: null }), User.where({ admin: false }).updateAll({ email: null, age: 3 })]) {
        const error = await rejectionOf(refused);
        expect(error).toBeInstanceOf(TypeError);
        expect(error.message).toBe("Users.updateAll: email cannot be set in bulk");
      }
    });
    expect(sqls()).toEqual([]);
    expect(await User.updateAll({ age: 3 })).toBe(1);
    expect((await User.findByOrThrow({ name: "Ada" })).email).toBe("ada@example.com");
  });
});

describe("wrapping record methods and statics", () => {
  it("two plugins wrapping save both run, the last registered first, on save and create alike", async () => {
    const log: string[] = [];
    const trims = definePlugin({
      name: "trims-name",
      wrap: {
        record: {
          save: (next) =>
            async function (this: { name: string }, ...args: unknown[]) {
              log.push(`trims ${this.name}`);
              this.name = this.name.trim();
              return next.apply(this, args);
            },
        },
      },
    });
    const shouts = definePlugin({
      name: "shouts-name",
      wrap: {
        record: {
          save: (next) =>
            async function (this: { name: string }, ...args: unknown[]) {
              log.push(`shouts ${this.name}`);
              this.name = this.name.toUpperCase();
              const saved = await next.apply(this, args);
              log.push(`saved ${String(saved)}`);
              return saved;
            },
        },
      },
    });
    const User = usersWith(trims, shouts);
    const ada = await User.create({ name: " ada " });
    expect(log).toEqual(["shouts  ada ", "trims  ADA ", "saved true"]);
    expect((await User.find(ada.id)).name).toBe("ADA");
  });

  it("a wrapper of save or destroy does not see the records written with another's write: the hooks do", async () => {
    const calls: string[] = [];
    const note = (method: string) => (next: (...args: unknown[]) => unknown) =>
      function (this: object, ...args: unknown[]) {
        calls.push(`${this.constructor.name}#${method}`);
        return next.apply(this, args);
      };
    class WrappingBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(definePlugin({ name: "noting-writes", wrap: { record: { save: note("save"), destroy: note("destroy") } } }));
        this.hook("record:beforeSave", ({ record }) => void calls.push(`hook ${record.constructor.name} save`));
      }
    }
    const Wrapped = defineApplicationRecord(schema, WrappingBase);
    class Author extends Wrapped("users") {
      posts = hasMany(Story, { dependent: "destroy", foreignKey: "userId" });
    }
    class Story extends Wrapped("posts") {}
    const author = Author.build({ name: "Ada" });
    author.posts().build({ title: "Built" });
    await author.save();
    await author.posts().add(Story.build({ title: "Added" }));
    await author.posts().set([Story.build({ title: "Set" })]);
    await Author.where({ name: "Ada" }).destroyAll();
    expect(calls).toEqual(["Author#save", "hook Author save", "hook Story save", "hook Story save", "hook Story save"]);
  });

  it("wraps a static of the kernel (create) and of a plugin (insert)", async () => {
    const defaultsEmail = definePlugin({
      name: "defaults-email",
      wrap: {
        static: {
          create: (next) =>
            function (attributes: Values = {}) {
              return next.call(this, { email: "none@example.com", ...attributes });
            },
          insert: (next) =>
            function (attributes: Values, ...rest: unknown[]) {
              return next.call(this, { email: "inserted@example.com", ...attributes }, ...rest);
            },
        },
      },
    });
    const User = usersWith(defaultsEmail);
    expect((await User.create({ name: "Ada" })).email).toBe("none@example.com");
    await User.insert({ name: "Bob" });
    expect((await User.findByOrThrow({ name: "Bob" })).email).toBe("inserted@example.com");
  });
});

describe("wrapping save, destroy and updateAll beside multiTenancy and auditLog", () => {
  /** A plugin logging each call of save, destroy and updateAll it wraps, then calling the one registered before it. */
  function logging(name: string, log: string[]): Plugin {
    const logged = (method: string) => (next: Function) =>
      function (this: unknown, ...args: unknown[]) {
        log.push(`${name} ${method}`);
        return next.apply(this, args);
      };
    return definePlugin({ name, wrap: { record: { save: logged("save"), destroy: logged("destroy") }, relation: { updateAll: logged("updateAll") } } });
  }

  const orders = [
    ["first", "second"],
    ["second", "first"],
  ] as const;

  for (const [earlier, later] of orders) {
    it(`both wrappers run, the last registered first, on every form of the method (${earlier}, then ${later})`, async () => {
      const log: string[] = [];
      class TenantBase extends ActiveRecord {
        static override binding = "DB";
        static {
          this.use(multiTenancy(), auditLog, logging(earlier, log), logging(later, log));
        }
      }
      class Task extends defineApplicationRecord(auditedSchema, TenantBase)("audited_tasks") {}
      const calls = (method: string) => [`${later} ${method}`, `${earlier} ${method}`];
      const { db, sqls } = listen();

      await withTenant("acme", () =>
        withDatabase(db, async () => {
          const task = await Task.createOrThrow({ title: "a" });
          expect(log.splice(0)).toEqual(calls("save"));
          await task.updateOrThrow({ title: "b" });
          expect(log.splice(0)).toEqual(calls("save"));
          task.title = "c";
          await task.saveOrThrow({ validate: false });
          expect(log.splice(0)).toEqual(calls("save"));
          expect(await Task.where({ title: "c" }).updateAll({ listId: 1 })).toBe(1);
          expect(log.splice(0)).toEqual(calls("updateAll"));
          await task.destroyOrThrow();
          expect(log.splice(0)).toEqual(calls("destroy"));
          await (await Task.createOrThrow({ title: "d" })).destroy();
          expect(log.splice(0)).toEqual([...calls("save"), ...calls("destroy")]);
        }),
      );
      // The tenant's narrowing and the audit log's entries were kept under the wrappers.
      expect(sqls().filter((text) => text.startsWith("UPDATE") || text.startsWith("DELETE"))).toEqual(
        expect.arrayContaining([expect.stringContaining(`"tenant_id" = ?`), expect.stringMatching(/^DELETE FROM "audited_tasks" WHERE "id" = \?1 AND \("tenant_id" = \?2\)/)]),
      );
      const { results } = await env.DB.prepare("SELECT operation FROM audit_log_entries ORDER BY id").all<{ operation: string }>();
      expect(results.map((row) => row.operation)).toEqual(["create", "update", "update", "updateAll", "destroy", "create", "destroy"]);
    });
  }

  it("a wrapper of save that refuses makes saveOrThrow throw, naming the Model", async () => {
    const refusing = definePlugin({ name: "refusing", wrap: { record: { save: () => async () => false } } });
    const User = usersWith(refusing);
    const error = await rejectionOf(User.createOrThrow({ name: "Ada" }));
    expect(error).toBeInstanceOf(RecordNotSaved);
    expect((error as Error).message).toBe("Users was not saved");
    expect(await User.count()).toBe(0);
  });
});

describe("providing a method already provided", () => {
  const cases: [string, Plugin, RegExp][] = [
    ["a Relation method of a plugin", definePlugin({ name: "own-update-all", relationMethods: { async updateAll() {} } }), /plugin own-update-all provides the relation method updateAll, which plugin bulk-writes provides already/],
    ["a Relation method of the kernel", definePlugin({ name: "own-where", relationMethods: { where() {} } }), /plugin own-where provides the relation method where, which the kernel provides already/],
    ["a static of a plugin, as a Relation method", definePlugin({ name: "own-insert", relationMethods: { insert() {} } }), /plugin own-insert provides the relation method insert, which plugin bulk-writes provides already/],
    [
      "a static of a plugin, in setup",
      definePlugin({
        name: "setup-insert",
        setup(model) {
          model.insert = () => undefined;
        },
      }),
      /plugin setup-insert provides the static method insert, which plugin bulk-writes provides already/,
    ],
    [
      "a record method of the kernel, in setup",
      definePlugin({
        name: "setup-save",
        setup(model) {
          model.prototype.save = () => undefined;
        },
      }),
      /plugin setup-save provides the record method save, which the kernel provides already/,
    ],
  ];

  for (const [what, plugin, message] of cases) {
    it(`is InvalidModel at registration: ${what}`, () => {
      const error = thrown(() => usersWith(plugin));
      return error.then((error) => {
        expect(error).toBeInstanceOf(InvalidModel);
        expect((error as Error).message).toMatch(message);
        expect((error as Error).message).toContain("wrap");
      });
    });
  }

  it("names both plugins when two of the app's plugins provide the same method", async () => {
    const first = definePlugin({ name: "archiving", relationMethods: { archive() {} } });
    const second = definePlugin({ name: "archiving-too", relationMethods: { archive() {} } });
    const error = (await thrown(() => usersWith(first, second))) as Error;
    expect(error).toBeInstanceOf(InvalidModel);
    expect(error.message).toMatch(/plugin archiving-too provides the relation method archive, which plugin archiving provides already/);
  });

  it("refuses a wrap of a method nobody provides, and a wrapper that is no function", async () => {
    const typo = definePlugin({ name: "wraps-typo", wrap: { relation: { updatAll: (next) => next } } });
    expect(((await thrown(() => usersWith(typo))) as Error).message).toMatch(/plugin wraps-typo wraps the relation method updatAll, which nothing registered before it provides/);
    const noSave = definePlugin({ name: "wraps-nothing", wrap: { record: { saveAll: (next) => next } } });
    expect(await thrown(() => usersWith(noSave))).toBeInstanceOf(InvalidModel);
    // A wrapper that is no function is refused where the plugin is defined; one whose result is none, where it is used.
    expect(() => definePlugin({ name: "wraps-badly", wrap: { static: { create: "no" as never } } })).toThrow(
      new TypeError(`definePlugin("wraps-badly"): wrap: static: create takes a function, not "no"`),
    );
    const notAFunction = definePlugin({ name: "wraps-badly", wrap: { static: { create: () => "no" as never } } });
    const error = (await thrown(() => usersWith(notAFunction))) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(/Users.use: plugin wraps-badly's wrap of the static method create is no function of the method it wraps/);
  });
});

describe("across a class chain", () => {
  it("a plugin on a subclass wraps what its parent's plugin provided; the parent's Models keep theirs", async () => {
    const log: string[] = [];
    const provides = definePlugin({
      name: "provides-rename-all",
      relationMethods: {
        renameAll(this: { updateAll(values: Values): Promise<number> }, name: string) {
          log.push("renameAll");
          return this.updateAll({ name });
        },
      },
    });
    const wraps = definePlugin({
      name: "wraps-on-child",
      wrap: {
        relation: {
          renameAll: (next) =>
            function (name: string) {
              log.push("child renameAll");
              return next.call(this, `${name}!`);
            },
          updateAll: (next) =>
            function (values: Values) {
              log.push("child updateAll");
              return next.call(this, values);
            },
        },
        record: {
          save: (next) =>
            function (...args: unknown[]) {
              log.push("child save");
              return next.apply(this, args);
            },
        },
        static: {
          build: (next) =>
            function (...args: unknown[]) {
              log.push("child build");
              return next.apply(this, args);
            },
        },
      },
    });
    class Parent extends ApplicationRecord("users") {
      static {
        this.use(provides);
      }
    }
    class Child extends Parent {
      static {
        this.use(wraps);
      }
    }
    class Sibling extends Parent {}

    await Parent.create({ name: "Ada" });
    await Sibling.create({ name: "Bob" });
    await (Parent as any).renameAll("Parent");
    await (Sibling as any).where({ name: "Parent" }).renameAll("Sibling");
    expect(log).toEqual(["renameAll", "renameAll"]);

    await Child.create({ name: "Cy" });
    expect(log.splice(0)).toEqual(["renameAll", "renameAll", "child build", "child save"]);
    await (Child as any).renameAll("Child");
    expect(log).toEqual(["child renameAll", "renameAll", "child updateAll"]);
    expect(await Parent.where({ name: "Child!" }).count()).toBe(3);
  });
});
