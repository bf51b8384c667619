import { env } from "cloudflare:test";
import { beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { connect, gt, gte, InvalidModel, lte, type RelationOf, type ScopeStatic } from "../../src/index.js";
import { Relation } from "../../src/plugin.js";
import { thrown, typeError } from "../helpers/errors.js";
import { listen } from "../helpers/queries.js";
import { User } from "../models/fixtures.js";

// Rule 7 of Scopes ("a scope preloaded with limit throws") concerns association preloading and is not tested here.

let threshold = 17;

let bodyRuns = 0;

let seenInside: Record<string, boolean> = {};

class Member extends User {
  static adults = this.scope((q) => q.where({ age: gt(17) }));
  static named: ScopeStatic<[name: string]> = this.scope((q, name: string) => q.where({ name }));
  static olderThanThreshold = this.scope((q) => q.where({ age: gt(threshold) }));
  static counted = this.scope((q) => {
    bodyRuns += 1;
    return q.limit(bodyRuns);
  });
  static createdUpToNow = this.scope((q) => q.where({ createdAt: lte(new Date()) }));
  static byName = this.scope((q, direction: "asc" | "desc" = "asc") => q.order({ name: direction }));
  static probe = this.scope((q) => {
    seenInside = {
      adults: "adults" in q,
      named: "named" in q,
      probe: "probe" in q,
    };
    return q;
  });
  /** Its body names its own class, so its type is written out. */
  static adultsNamed: ScopeStatic<[name: string]> = this.scope((q, name: string) => q.merge(Member.adults()).where({ name }));
}

class Senior extends Member {
  static override adults = this.scope((q) => q.where({ age: gte(50) }));
  static oldestFirst = this.scope((q) => q.order({ age: "desc" }));
}

class Elder extends Senior {}

beforeAll(async () => {
  await User.create({ name: "Ada", age: 36 });
  await User.create({ name: "Bob", age: 17 });
  await User.create({ name: "Cy" });
  await User.create({ name: "Dee", age: 50 });
  await User.create({ name: "Eve", age: 17 });
});

async function names(relation: { pluck(name: "name"): Promise<string[]> }): Promise<string[]> {
  return (await relation.pluck("name")).sort();
}

describe("rule 1: declared as a static, callable as a static or on any Relation of the Model", () => {
  it("is a static of the class", async () => {
    expect(Object.hasOwn(Member, "adults")).toBe(true);
    expect(typeof Member.adults).toBe("function");
    const adults = Member.adults();
    expect(adults).toBeInstanceOf(Relation);
    expect(adults.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" > ?1`, params: [17] });
    expect(await names(adults)).toEqual(["Ada", "Dee"]);
    expect(await names(Member.named("Bob"))).toEqual(["Bob"]);
  });

  it("is callable on a Relation, after where and after another scope", async () => {
    const afterWhere = Member.where({ name: ["Ada", "Bob"] }).adults();
    expect(afterWhere.toSql().sql).toBe(`SELECT * FROM "users" WHERE "name" IN (SELECT value FROM json_each(?1)) AND "age" > ?2`);
    expect(await names(afterWhere)).toEqual(["Ada"]);
    const afterScope = Member.adults().named("Dee");
    expect(afterScope.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" > ?1 AND "name" = ?2`, params: [17, "Dee"] });
    expect(await names(afterScope)).toEqual(["Dee"]);
    expect(await names(Member.named("Bob").adults())).toEqual([]);
    expect(await Member.all().adults().byName("desc").pluck("name")).toEqual(["Dee", "Ada"]);
    expect(await Member.order({ age: "asc" }).limit(5).adults().pluck("name")).toEqual(["Ada", "Dee"]);
    expect(await names(Member.whereNot({ name: "Ada" }).adults())).toEqual(["Dee"]);
    expect(await names(Member.adults().or(Member.named("Cy")))).toEqual(["Ada", "Cy", "Dee"]);
    expect(await names(Member.where({ age: 17 }).merge(Member.named("Eve")))).toEqual(["Eve"]);
    expect(await Member.none().adults().toArray()).toEqual([]);
  });

  it("a scope's Relation keeps every Relation method and result method", async () => {
    const adults = Member.adults();
    expect(await adults.count()).toBe(2);
    expect(await adults.exists({ name: "Dee" })).toBe(true);
    expect((await adults.order({ age: "asc" }).first())!.name).toBe("Ada");
    expect((await adults.paginate({ perPage: 1 })).total).toBe(2);
    expect(adults.where({ name: "Ada" }).build().name).toBe("Ada");
  });

  it("on a Model bound to a database, the scope queries that database", async () => {
    const { db, events } = listen();
    const Bound = db.model(Member);
    expect(await names(Bound.adults())).toEqual(["Ada", "Dee"]);
    expect(await names(Bound.where({ age: 36 }).named("Ada"))).toEqual(["Ada"]);
    expect(events.map((event) => event.sql)).toEqual([
      `SELECT "name" FROM "users" WHERE "age" > ?1`,
      `SELECT "name" FROM "users" WHERE "age" = ?1 AND "name" = ?2`,
    ]);
  });

  it("is not on Relations of other Models, nor of the parent class", () => {
    expect("adults" in User).toBe(false);
    expect("adults" in User.all()).toBe(false);
    expect("adults" in User.where({ age: 1 })).toBe(false);
    expect("adults" in Member.where({ age: 1 })).toBe(true);
  });
});

describe("rule 2: arguments and anything computed inside are evaluated at call time", () => {
  it("arguments are those of each call", async () => {
    expect(Member.named("Ada").toSql().params).toEqual(["Ada"]);
    expect(Member.named("Bob").toSql().params).toEqual(["Bob"]);
    expect(await Member.byName().pluck("name")).toEqual(["Ada", "Bob", "Cy", "Dee", "Eve"]);
    expect(await Member.byName("desc").pluck("name")).toEqual(["Eve", "Dee", "Cy", "Bob", "Ada"]);
  });

  it("more arguments than an arrow body of plain parameters takes throw TypeError naming the Model and the scope", () => {
    const extra = (call: () => unknown) => typeError(call);
    expect(extra(() => (Member.named as any)("Ada", "Bob"))).toBe("Member.named takes one argument, not 2");
    expect(extra(() => (Member.where({}).named as any)("Ada", "Bob"))).toBe("Member.named takes one argument, not 2");
    expect(extra(() => (Member.adults as any)(30))).toBe("Member.adults takes no argument");
    expect(extra(() => (Senior.adults as any)(30))).toBe("Senior.adults takes no argument");
    class Taking extends User {
      static bare = this.scope(() => User.all());
      static single = this.scope((q, age: number) => q.where({ age }));
      static both = this.scope((q, name: string, age: number) => q.where({ name, age }));
      // Any number taken, as far as the source can tell: no refusal.
      static rest = this.scope((q, ...names: string[]) => q.where({ name: names }));
      static defaulted = this.scope((q, age: number = 1) => q.where({ age }));
      static classic = this.scope(function (q, ...args: unknown[]) {
        return q.where({ name: String(args[0]) });
      });
    }
    expect(extra(() => (Taking.bare as any)(1))).toBe("Taking.bare takes no argument");
    expect(extra(() => (Taking.single as any)(1, 2))).toBe("Taking.single takes one argument, not 2");
    expect(extra(() => (Taking.both as any)("a", 1, 2))).toBe("Taking.both takes 2 arguments, not 3");
    expect(Taking.both("a", 1).toSql().params).toEqual(["a", 1]);
    expect(Taking.rest("a", "b", "c").toSql().params).toEqual(['["a","b","c"]']);
    expect(Taking.defaulted(2).toSql().params).toEqual([2]);
    expect(Taking.classic("a").toSql().params).toEqual(["a"]);
  });

  it("the body runs at each call, reading variables as they are then", async () => {
    expect(bodyRuns).toBe(0);
    expect(Member.counted().toSql().sql).toBe(`SELECT * FROM "users" LIMIT 1`);
    expect(Member.counted().toSql().sql).toBe(`SELECT * FROM "users" LIMIT 2`);
    expect(Member.where({ age: 17 }).counted().toSql().sql).toBe(`SELECT * FROM "users" WHERE "age" = ?1 LIMIT 3`);
    expect(bodyRuns).toBe(3);

    threshold = 17;
    const before = Member.olderThanThreshold();
    threshold = 40;
    const after = Member.olderThanThreshold();
    expect(await names(before)).toEqual(["Ada", "Dee"]);
    expect(await names(after)).toEqual(["Dee"]);
    threshold = 17;
  });

  it("new Date() inside a scope is the time of the call", async () => {
    const early = Member.createdUpToNow();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const late = await User.create({ name: "Late", age: 99 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const now = Member.createdUpToNow();
    expect(new Date(early.toSql().params[0] as string).getTime()).toBeLessThan(late.createdAt.getTime());
    expect(await early.count()).toBe(5);
    expect(await now.count()).toBe(6);
    await late.destroy();
  });
});

describe("rule 3: inherited; a subclass may replace a scope with static override", () => {
  it("a subclass inherits the parent's scopes", async () => {
    expect(await names(Senior.named("Ada"))).toEqual(["Ada"]);
    expect(await names(Senior.where({ age: 17 }).named("Eve"))).toEqual(["Eve"]);
    expect(await names(Elder.named("Bob"))).toEqual(["Bob"]);
  });

  it("static override replaces the scope for the subclass (and below) only", async () => {
    expect(await names(Senior.adults())).toEqual(["Dee"]);
    expect(await names(Senior.all().adults())).toEqual(["Dee"]);
    expect(await names(Senior.named("Ada").adults())).toEqual([]);
    expect(await names(Elder.adults())).toEqual(["Dee"]);
    expect(await names(Member.adults())).toEqual(["Ada", "Dee"]);
    expect(await names(Member.all().adults())).toEqual(["Ada", "Dee"]);
  });

  it("scopes declared on a subclass never reach the parent", async () => {
    expect(await Senior.oldestFirst().limit(2).pluck("name")).toEqual(["Dee", "Ada"]);
    expect(await Member.adults().byName().pluck("name")).toEqual(["Ada", "Dee"]);
    expect(await Senior.adults().oldestFirst().pluck("name")).toEqual(["Dee"]);
    expect("oldestFirst" in Member).toBe(false);
    expect("oldestFirst" in Member.all()).toBe(false);
    expect("oldestFirst" in Senior.all()).toBe(true);
  });
});

/** A subclass of User, named `<prefix><Name>`, declaring a scope under `name`. */
function scopeNamed(name: string, prefix = "Scope"): typeof User {
  const Scoped = class extends User {};
  Object.defineProperty(Scoped, "name", { value: `${prefix}${name[0]!.toUpperCase()}${name.slice(1)}` });
  Object.defineProperty(Scoped, name, { value: User.scope((q) => q), writable: true, configurable: true });
  return Scoped;
}

describe("rule 4: a scope cannot take the name of a Relation method or a Model static", () => {
  it("where, count, validates, scope and all throw InvalidModel at db.model()", async () => {
    const db = connect(env.DB);
    for (const Model of ["where", "count", "validates", "scope", "all"].map((name) => scopeNamed(name))) {
      expect(() => db.model(Model), Model.name).toThrow(InvalidModel);
      // Every later use fails the same way.
      expect(() => db.model(Model), Model.name).toThrow(InvalidModel);
    }
  });

  it("a scope named like a plugin's static setting (filterAttributes, perPage) is refused by name too", () => {
    expect(() => connect(env.DB).model(scopeNamed("filterAttributes"))).toThrow(
      "ScopeFilterAttributes: the scope filterAttributes has the name of a Relation method or Model static",
    );
    expect(() => connect(env.DB).model(scopeNamed("perPage"))).toThrow("ScopePerPage: the scope perPage has the name of a Relation method or Model static");
  });

  it("the first query throws InvalidModel", async () => {
    const [where, count, scope, validates, all] = ["where", "count", "scope", "validates", "all"].map((name) => scopeNamed(name, "Query"));
    expect(await thrown(() => where!.where({ name: "Ada" }))).toBeInstanceOf(InvalidModel);
    expect(await thrown(() => count!.count())).toBeInstanceOf(InvalidModel);
    expect(await thrown(() => scope!.first())).toBeInstanceOf(InvalidModel);
    expect(await thrown(() => validates!.toArray())).toBeInstanceOf(InvalidModel);
    expect(await thrown(() => all!.first())).toBeInstanceOf(InvalidModel);
  });

  it("other Relation method names are refused too; a free name is accepted", async () => {
    const db = connect(env.DB);
    for (const Model of ["order", "paginate", "first", "build"].map((name) => scopeNamed(name))) {
      expect(() => db.model(Model), Model.name).toThrow(InvalidModel);
    }
    class Fine extends User {
      static recent = this.scope((q) => q.order({ createdAt: "desc" }));
    }
    expect(() => db.model(Fine)).not.toThrow();
    expect(await Fine.recent().count()).toBe(5);
  });
});

describe("rule 5: inside a scope, q has the Relation methods but not the Model's other scopes", () => {
  it("q lacks the other scopes", () => {
    Member.probe();
    expect(seenInside).toEqual({ adults: false, named: false, probe: false });
    seenInside = {};
    Member.adults().named("Ada").probe();
    expect(seenInside).toEqual({ adults: false, named: false, probe: false });
  });

  it("q has the Relation methods, and what the scope returns has the scopes again", async () => {
    let methods: Record<string, string> = {};
    class Inspecting extends User {
      static look = this.scope((q) => {
        const names = ["where", "whereNot", "or", "order", "reorder", "limit", "offset", "select", "distinct", "none", "merge", "includes", "toSql", "toArray", "find", "findBy", "findByOrThrow", "first", "last", "take", "pluck", "count", "exists", "size", "isEmpty", "hasAny"];
        methods = Object.fromEntries(names.map((name) => [name, typeof (q as any)[name]]));
        return q.where({ age: 17 });
      });
      static named = this.scope((q, name: string) => q.where({ name }));
    }
    const relation = Inspecting.look();
    expect(Object.keys(methods)).toHaveLength(26);
    for (const [name, type] of Object.entries(methods)) expect(type, name).toBe("function");
    expect(await names(relation.named("Eve"))).toEqual(["Eve"]);
  });

  it("q also has paginate, a Relation method of the Querying table", () => {
    let paginate = "not called";
    class Paging extends User {
      static look = this.scope((q) => {
        paginate = typeof (q as any).paginate;
        return q;
      });
    }
    Paging.look();
    expect(paginate).toBe("function");
  });

  it("a scope may use another scope through its class", async () => {
    expect(Member.adultsNamed("Dee").toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "age" > ?1 AND "name" = ?2`, params: [17, "Dee"] });
    expect(await names(Member.adultsNamed("Dee"))).toEqual(["Dee"]);
    expect(await names(Member.adultsNamed("Bob"))).toEqual([]);
  });
});

describe("rule 6: ScopeStatic<[...args]> types a scope whose body names its own class", () => {
  it("is typed as a static and on Relations", async () => {
    const relation = Member.adultsNamed("Ada");
    expectTypeOf(Member.adultsNamed).toEqualTypeOf<ScopeStatic<[name: string]>>();
    expectTypeOf(relation).toEqualTypeOf<RelationOf<typeof Member>>();
    expectTypeOf(Member.adults().named).toEqualTypeOf<(name: string) => RelationOf<typeof Member>>();
    const chained: RelationOf<typeof Member> = Member.where({ age: 36 }).adultsNamed("Ada").adults();
    const found = await chained.first();
    expectTypeOf(found).toEqualTypeOf<Member | null>();
    expect(found!.name).toBe("Ada");
    const ages: (number | null)[] = await relation.pluck("age");
    expect(ages).toEqual([36]);
    if (ages.length < 0) {
      // Type-level checks only (run by `npm run typecheck`), never executed.
      // @ts-expect-error a number is not a name
      Member.adultsNamed(5);
      // @ts-expect-error the name is required
      Member.named();
      // @ts-expect-error scopes of Member are not on User
      User.all().adults();
    }
  });
});
