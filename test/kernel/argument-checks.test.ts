import { inspect } from "node:util";
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { batch, CastError, between, column, connect, gt, gte, hasMany, ignoringCase, lt, lte, sql, withDatabase } from "../../src/index.js";
import { previewText, Relation } from "../../src/plugin.js";
import { refusedValueError, refuseUninspectable, unfitValue } from "../../src/kernel/records/arguments.js";
import { thrown } from "../helpers/errors.js";
import { countRows, listen } from "../helpers/queries.js";
import { ApplicationRecord, Counter, Post, User } from "../models/fixtures.js";

// Every public method refuses a wrong argument with TypeError naming where it was given, before anything is sent.

class Writer extends ApplicationRecord("users") {
  posts = hasMany(Post, { foreignKey: "userId" });
}

class Tally extends ApplicationRecord("counters") {
  static byLabel = this.scope((q, conditions: object) => q.where(conditions as never));
}

class Plain {
  label = "x";
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

const trappedProxy = new Proxy({}, { getPrototypeOf: () => { throw new Error("trap"); } });

/** The plugin API's view of a Relation (`with`, `model`), which the typed Relations do not show. */
const pluginView = (relation: unknown): Relation => relation as Relation;

/** Inputs that are not a plain object of attribute values, though each is an object or could be mistaken for one. */
const notPlainObjects: [string, () => unknown][] = [
  ["URLSearchParams", () => new URLSearchParams("label=x")],
  ["FormData", () => { const form = new FormData(); form.set("label", "x"); return form; }],
  ["Map", () => new Map([["label", "x"]])],
  ["Headers", () => new Headers({ label: "x" })],
  ["Date", () => new Date()],
  ["a record", () => Counter.build({ label: "x" })],
  ["an array", () => [["label", "x"]]],
  ["a class instance", () => new Plain()],
  ["null", () => null],
  ["a number", () => 5],
  ["a Symbol", () => Symbol("s")],
  ["a revoked Proxy", revokedProxy],
  ["a Proxy whose traps throw", () => trappedProxy],
];

/** What no method here takes as a name, a count, options or a list. */
const hostile: [string, () => unknown][] = [
  ["null", () => null],
  ["undefined", () => undefined],
  ["a Symbol", () => Symbol("s")],
  ["a number", () => 5],
  ["a Map", () => new Map()],
  ["a revoked Proxy", revokedProxy],
];

type BoundModels = { Counter: typeof Counter; Tally: typeof Tally; Writer: typeof Writer; User: typeof User };
let bound: ReturnType<typeof listen<BoundModels>>;
let writer: Writer;
let counter: InstanceType<typeof Counter>;

const listenAll = () => listen({ models: { Counter, Tally, Writer, User } });

beforeAll(async () => {
  const setup = listen({ models: { Counter } });
  await setup.Counter.insertAll([{ id: 1, label: "one", value: 1 }, { id: 2, label: "two", value: 2 }]);
  writer = await setup.db.model(Writer).createOrThrow({ name: "w" });
  counter = (await setup.Counter.find(1)) as InstanceType<typeof Counter>;
});

/** The rows a refused call must leave as they are. */
async function snapshot(): Promise<string> {
  const counters = await env.DB.prepare("SELECT * FROM counters ORDER BY id").all();
  return JSON.stringify([counters.results, await countRows("users"), await countRows("posts")]);
}

/** Runs a case: TypeError whose message matches, no query sent, nothing written. */
async function expectRefused(run: () => unknown, message: RegExp): Promise<void> {
  bound = listenAll();
  const before = await snapshot();
  const error = await thrown(run);
  expect(error).toBeInstanceOf(TypeError);
  expect((error as Error).message).toMatch(message);
  expect(bound.events).toEqual([]);
  expect(await snapshot()).toBe(before);
}

describe("condition objects must be plain objects", () => {
  const methods: [string, (input: never) => unknown, RegExp][] = [
    ["where", (input) => bound.Counter.where(input).deleteAll(), /^Counter\.where takes a plain object/],
    ["whereNot", (input) => bound.Counter.whereNot(input).deleteAll(), /^Counter\.whereNot takes a plain object/],
    ["findBy", (input) => bound.Counter.findBy(input), /^Counter\.findBy takes a plain object/],
    ["findByOrThrow", (input) => bound.Counter.findByOrThrow(input), /^Counter\.findByOrThrow takes a plain object/],
    ["exists", (input) => bound.Counter.exists(input), /^Counter\.exists takes a plain object/],
    ["updateAll", (input) => bound.Counter.updateAll(input), /^Counter\.updateAll takes a plain object/],
    ["a Relation's build", (input) => bound.Counter.where({ label: "x" }).build(input), /^Counter\.build takes a plain object/],
    ["a Relation's where, then updateAll", (input) => bound.Counter.all().where(input).updateAll({ value: 0 }), /^Counter\.where takes/],
    ["a scope", (input) => bound.Tally.byLabel(input), /^Tally\.where takes a plain object/],
    ["an association's where", (input) => bound.Writer.build({ name: "x" }).posts().where(input).deleteAll(), /^Post\.where takes a plain object/],
    ["an association's findBy", (input) => writer.posts().findBy(input), /^Post\.findBy takes a plain object/],
  ];
  for (const [method, call, message] of methods) {
    for (const [kind, input] of notPlainObjects) {
      it(`${method} refuses ${kind}`, () => expectRefused(() => call(input() as never), message));
    }
  }

  it("a plain object, Object.create(null) included, still narrows", async () => {
    const conditions = Object.assign(Object.create(null) as object, { label: "one" });
    expect(await Counter.where(conditions).pluck("id")).toEqual([1]);
  });
});

describe("every public method checks its arguments", () => {
  const cases: [string, (value: never) => unknown, RegExp][] = [
    ["order", (value) => bound.Counter.order(value), /^Counter\.order/],
    ["order of an attribute", (value) => bound.Counter.order({ label: value }), /^Counter\.order: label/],
    ["reorder of an attribute", (value) => bound.Counter.where({}).reorder({ label: value }), /^Counter\.order: label/],
    ["limit", (value) => bound.Counter.limit(value), /^Counter\.limit takes a whole number from 0/],
    ["offset", (value) => bound.Counter.offset(value), /^Counter\.offset takes a whole number from 0/],
    ["select", (value) => bound.Counter.select(value), /^Counter\.select takes attribute names/],
    ["pluck", (value) => bound.Counter.pluck(value), /^Counter\.pluck takes attribute names/],
    ["includes", (value) => bound.Counter.includes(value), /^Counter\.includes takes association names/],
    ["paginate page", (value) => bound.Counter.paginate({ page: value }), /^Counter\.paginate: page must be a whole number/],
    ["readAttribute", (value) => counter.readAttribute(value), /^Counter\.readAttribute takes attribute names/],
    ["writeAttribute", (value) => counter.writeAttribute(value, 1 as never), /^Counter\.writeAttribute takes attribute names/],
    ["restoreAttributes", (value) => counter.restoreAttributes(value), /^Counter\.restoreAttributes takes attribute names/],
    ["savedChangeTo", (value) => counter.savedChangeTo(value), /^Counter\.savedChangeTo takes attribute names/],
    ["isAttributeChanged options", (value) => counter.isAttributeChanged("label", value), /^Counter\.isAttributeChanged/],
    ["db.batch", (value) => bound.db.batch(value), /^db\.batch takes a list/],
    ["batch", (value) => batch(value), /^batch takes a list/],
    ["db.batch item", (value) => bound.db.batch([value]), /^db\.batch takes Statements and record writes/],
    ["batch item", (value) => withDatabase(bound.db, () => batch([bound.Counter.toDeleteAll(), value])), /^batch takes Statements/],
    ["db.run", (value) => bound.db.run(value), /^db\.run takes Statements/],
    ["db.model", (value) => bound.db.model(value), /^db\.model takes a Model class/],
    ["db.onQuery", (value) => bound.db.onQuery(value), /^onQuery takes a function/],
    ["connect", (value) => connect(value), /^connect/],
    ["connect onQuery", (value) => connect(env.DB, { onQuery: value }), /^connect: onQuery takes a function/],
    ["withDatabase", (value) => withDatabase(value, () => 1), /^withDatabase takes a database/],
    ["withDatabase function", (value) => withDatabase(bound.db, value), /^withDatabase takes a function/],
    ["upsert uniqueBy", (value) => bound.Counter.upsert({ id: 1, value: 9 }, { uniqueBy: value }), /^Counter\.upsertAll/],
    ["insertAll", (value) => bound.Counter.insertAll(value), /^Counter\.insertAll takes a non-empty array/],
    ["column", (value) => bound.Counter.where(sql`${column(value)} = 1`), /^column takes an attribute name/],
    ["use", (value) => class extends ApplicationRecord("counters") {}.use(value), /\.use takes a plugin definition/],
    ["hook", (value) => class extends ApplicationRecord("counters") {}.hook("record:initialize", value), /\.hook takes a hook function/],
    ["scope", (value) => class extends ApplicationRecord("counters") {}.scope(value), /\.scope takes a function/],
  ];
  for (const [method, call, message] of cases) {
    for (const [kind, value] of hostile) {
      // undefined leaves out an optional argument; a number is a limit; a missing page is the first.
      const optional = ["isAttributeChanged options", "upsert uniqueBy", "hook", "paginate page"].includes(method) || method.startsWith("connect ");
      if (kind === "undefined" && optional) continue;
      if (kind === "null" && (method === "connect" || method === "paginate page")) continue;
      if (kind === "a number" && ["limit", "offset", "paginate page"].includes(method)) continue;
      it(`${method} refuses ${kind}`, () => expectRefused(() => call(value() as never), message));
    }
  }

  const named: [string, () => unknown, RegExp][] = [
    ["order(null)", () => bound.Counter.order(null as never), /^Counter\.order takes an object of attribute directions or an sql fragment, not null$/],
    ["order(5)", () => bound.Counter.order(5 as never), /^Counter\.order takes .*, not 5$/],
    ["order(new Map())", () => bound.Counter.order(new Map() as never), /^Counter\.order takes .*, not \[object Map\]$/],
    ["reorder(null)", () => bound.Counter.reorder(null as never), /^Counter\.order takes/],
    ["reorder(new Map())", () => bound.Counter.reorder(new Map() as never), /^Counter\.order takes/],
    ["paginate(null)", () => bound.Counter.paginate(null as never), /^Counter\.paginate takes an options object, not null$/],
    ['paginate("x")', () => bound.Counter.paginate("x" as never), /^Counter\.paginate takes an options object/],
    ["paginate(new Map())", () => bound.Counter.paginate(new Map() as never), /^Counter\.paginate takes an options object/],
    ['paginate({ count: "no" })', () => bound.Counter.paginate({ count: "no" as never }), /^Counter\.paginate: count takes a boolean/],
    ["paginate({ perPage: Symbol() })", () => bound.Counter.paginate({ perPage: Symbol() as never }), /^Counter\.paginate: perPage must be/],
    ["between(a, b, null)", () => between(1, 2, null as never), /^between takes an options object, not null$/],
    ['between(a, b, "x")', () => between(1, 2, "x" as never), /^between takes an options object/],
    ['between(a, b, { excludeEnd: "yes" })', () => between(1, 2, { excludeEnd: "yes" as never }), /^between takes excludeEnd as a boolean/],
    ["gt(undefined)", () => gt(undefined), /^gt takes a value/],
    ["gte(undefined)", () => gte(undefined), /^gte takes a value/],
    ["lt(undefined)", () => lt(undefined), /^lt takes a value/],
    ["lte(undefined)", () => lte(undefined), /^lte takes a value/],
    ["ignoringCase(undefined)", () => ignoringCase(undefined as never), /^ignoringCase takes a value/],
    ["between(undefined, 1)", () => between(undefined, 1), /^between takes a value/],
    ["db.model(a class not made from Base)", () => bound.db.model(class Plain {}), /^db\.model takes a Model class, not /],
    ["db.model(an object inheriting from a Model)", () => bound.db.model(Object.create(bound.Counter)), /^db\.model takes a Model class, not /],
    ["db.batch([undefined])", () => bound.db.batch([undefined] as never), /^db\.batch takes Statements and record writes .*, not undefined$/],
    ["db.batch([{}])", () => bound.db.batch([{}] as never), /^db\.batch takes Statements/],
    ["db.runAll(null)", () => bound.db.runAll(null as never), /^db\.runAll takes a list of Statements/],
    ["batch(null)", () => batch(null as never), /^batch takes a list of Statements, not null$/],
    ['batch("x")', () => batch("x" as never), /^batch takes a list/],
    ["select(Symbol())", () => bound.Counter.select(Symbol("s") as never), /^Counter\.select takes attribute names, not Symbol\(s\)$/],
    ["pluck(Symbol())", () => bound.Counter.pluck(Symbol("s") as never), /^Counter\.pluck takes attribute names, not Symbol\(s\)$/],
    ['connect("DB")', () => connect("DB" as never), /^connect takes a D1 binding \(env\.DB, not its name\), not "DB"$/],
    ["connect({})", () => connect({} as never), /^connect takes a D1 binding/],
    ["connect(env.DB, null)", () => connect(env.DB, null as never), /^connect takes an options object, not null$/],
    ["connect(env.DB, { session: 5 })", () => connect(env.DB, { session: 5 as never }), /^connect: session takes a string/],
    ["upsert(x, { uniqueBy: [] })", () => bound.Counter.upsert({ id: 1, value: 9 }, { uniqueBy: [] }), /^Counter\.upsertAll: uniqueBy takes a non-empty list of attribute names, not \[\]$/],
    ['upsert(x, { uniqueBy: "code" })', () => bound.Counter.upsert({ id: 1, value: 9 }, { uniqueBy: "id" as never }), /^Counter\.upsertAll: uniqueBy takes a non-empty list/],
    ["upsert(x, { uniqueBy: [Symbol()] })", () => bound.Counter.upsert({ id: 1, value: 9 }, { uniqueBy: [Symbol() as never] }), /^Counter\.upsertAll takes attribute names/],
    ["upsert(x, null)", () => bound.Counter.upsert({ id: 1, value: 9 }, null as never), /^Counter\.upsertAll takes an options object/],
    ['insert(x, { onDuplicate: "ignore" })', () => bound.Counter.insert({ id: 5, value: 9 }, { onDuplicate: "ignore" as never }), /^Counter\.insertAll: onDuplicate takes "skip" or "raise"/],
    ["insert(x, 5)", () => bound.Counter.insert({ id: 5, value: 9 }, 5 as never), /^Counter\.insertAll takes an options object/],
    ["insertAll([null])", () => bound.Counter.insertAll([null] as never), /^Counter\.build takes a plain object/],
    ["limit(1.5)", () => bound.Counter.limit(1.5), /^Counter\.limit takes a whole number from 0, not 1\.5$/],
    ["limit(-1)", () => bound.Counter.limit(-1), /^Counter\.limit takes a whole number from 0, not -1$/],
    ["limit(NaN)", () => bound.Counter.limit(Number.NaN), /^Counter\.limit takes/],
    ["limit(Infinity)", () => bound.Counter.limit(Infinity), /^Counter\.limit takes/],
    ['limit("5")', () => bound.Counter.limit("5" as never), /^Counter\.limit takes/],
    ["limit(2 ** 53)", () => bound.Counter.limit(2 ** 53), /^Counter\.limit takes/],
    ["offset(-0.5)", () => bound.Counter.offset(-0.5), /^Counter\.offset takes/],
    ["offset(10n)", () => bound.Counter.offset(10n as never), /^Counter\.offset takes a whole number from 0, not 10n$/],
    ["find(Symbol())", () => bound.Counter.find(Symbol("s")), /^Counter\.find: id: a symbol is not a value$/],
    ["find(function)", () => bound.Counter.find(() => 1), /^Counter\.find: id: a function is not a value$/],
    ["find([Symbol()])", () => bound.Counter.find([1, Symbol("s")]), /^Counter\.find: id: a symbol/],
    ["find(revoked Proxy)", () => bound.Counter.find(revokedProxy()), /^Counter\.find: id: the value cannot be inspected/],
    ["includes(5)", () => bound.Counter.includes(5 as never), /^Counter\.includes takes association names, or objects of association names to what to include below them, not 5$/],
    ["order({ label: Symbol() })", () => bound.Counter.order({ label: Symbol() as never }), /^Counter\.order: label takes "asc", "desc" or \{ direction, nulls \}, not Symbol\(\)$/],
    ['order({ label: { direction: "up" } })', () => bound.Counter.order({ label: { direction: "up" as never } }), /^Counter\.order: label must be "asc" or "desc", not "up"$/],
    ["isAttributeChanged(name, { from: revoked })", () => counter.isAttributeChanged("label", { from: revokedProxy() as never }), /^Counter\.isAttributeChanged: label: the value cannot be inspected/],
    ["assign(new Map())", () => counter.assign(new Map() as never), /^Counter\.assign takes a plain object/],
    ["update(null)", () => counter.update(null as never), /^Counter\.update takes a plain object/],
    ["where({ label: Symbol() })", () => bound.Counter.where({ label: Symbol() as never }), /^Counter\.where: label: a symbol is not a value$/],
    ["where({ label: [function] })", () => bound.Counter.where({ label: [(() => 1) as never] }), /^Counter\.where: label: a function is not a value$/],
  ];
  for (const [name, call, message] of named) {
    it(`${name} throws TypeError naming the method and argument`, () => expectRefused(call, message));
  }
});

describe("an argument a method does not take is refused, never read as nothing", () => {
  // Each would otherwise be ignored, changing what is read or written: deleteAll({ label }) deleted every row.
  const any = () => bound.Counter as any;
  const record = () => counter as any;
  const cases: [string, () => unknown, RegExp][] = [
    ["Counter.all({ label })", () => any().all({ label: "one" }), /^Counter\.all takes no argument; narrow with where\(\.\.\.\): Counter\.where\(\{ \.\.\. \}\)$/],
    ["Counter.deleteAll({ label })", () => any().deleteAll({ label: "one" }), /^Counter\.deleteAll takes no argument; narrow with where\(\.\.\.\) first: Counter\.where\(\{ \.\.\. \}\)\.deleteAll\(\)$/],
    ["updateAll(values, conditions)", () => any().updateAll({ value: 1 }, { label: "one" }), /^Counter\.updateAll takes one argument, not 2; narrow with where/],
    ["toDeleteAll({ label })", () => any().toDeleteAll({ label: "one" }), /^Counter\.toDeleteAll takes no argument/],
    ["toUpdateAll(values, conditions)", () => any().toUpdateAll({ value: 1 }, { label: "one" }), /^Counter\.toUpdateAll takes one argument, not 2/],
    ["toArray({ limit })", () => any().toArray({ limit: 1 }), /^Counter\.toArray takes no argument; narrow or page the Relation first/],
    ["count(name)", () => any().count("label"), /^Counter\.count takes no argument; to count the rows where an attribute is set: Counter\.whereNot\(\{ name: null \}\)\.count\(\)$/],
    ["size(x)", () => any().size("label"), /^Counter\.size takes no argument$/],
    ["exists(a, b)", () => any().exists({ label: "one" }, { value: 1 }), /^Counter\.exists takes one argument, not 2; give every condition in one object$/],
    ["exists(undefined)", () => any().exists(undefined), /^Counter\.exists takes a plain object of attribute values or an sql fragment, not undefined$/],
    ["isEmpty(x)", () => any().isEmpty({ label: "one" }), /^Counter\.isEmpty takes no argument$/],
    ["hasAny(x)", () => any().hasAny({ label: "one" }), /^Counter\.hasAny takes no argument$/],
    ["findBy(a, b)", () => any().findBy({ label: "one" }, { value: 2 }), /^Counter\.findBy takes one argument, not 2; give every condition in one object$/],
    ["findByOrThrow(a, b)", () => any().findByOrThrow({ label: "one" }, { value: 2 }), /^Counter\.findByOrThrow takes one argument, not 2/],
    ["where(a, b)", () => any().where({ label: "one" }, { value: 2 }), /^Counter\.where takes one argument, not 2; give every condition in one object$/],
    ["where().where(a, b)", () => any().where({ label: "one" }).where({ label: "one" }, { value: 2 }), /^Counter\.where takes one argument, not 2/],
    ["whereNot(a, b)", () => any().whereNot({ label: "one" }, { value: 2 }), /^Counter\.whereNot takes one argument, not 2$/],
    ["order(a, b)", () => any().order({ label: "asc" }, { value: "desc" }), /^Counter\.order takes one argument, not 2; give every attribute in one object/],
    ["reorder(a, b)", () => any().reorder({ label: "asc" }, { value: "desc" }), /^Counter\.reorder takes one argument, not 2/],
    ["limit(a, b)", () => any().limit(1, 2), /^Counter\.limit takes one argument, not 2$/],
    ["offset(a, b)", () => any().offset(1, 2), /^Counter\.offset takes one argument, not 2$/],
    ["distinct(false)", () => any().distinct(false), /^Counter\.distinct takes no argument$/],
    ["none(x)", () => any().none(false), /^Counter\.none takes no argument$/],
    ["first(2, 3)", () => any().first(2, 3), /^Counter\.first takes one argument, not 2$/],
    ["first(undefined)", () => any().first(undefined), /^Counter\.first takes a whole number from 0, not undefined$/],
    ["first(-1)", () => any().first(-1), /^Counter\.first takes a whole number from 0, not -1$/],
    ['take("2")', () => any().take("2"), /^Counter\.take takes a whole number from 0, not "2"$/],
    ["last(1.5)", () => any().last(1.5), /^Counter\.last takes a whole number from 0, not 1\.5$/],
    ["last(1, 2)", () => any().last(1, 2), /^Counter\.last takes one argument, not 2$/],
    ["paginate(a, b)", () => any().paginate({ page: 1 }, { perPage: 5 }), /^Counter\.paginate takes one argument, not 2/],
    ["paginate({ nope })", () => any().paginate({ nope: 1 }), /^Counter\.paginate: "nope" is not an option; the options are page, perPage, count$/],
    ["build(a, b)", () => any().build({ label: "x" }, { value: 1 }), /^Counter\.build takes one argument, not 2$/],
    ["create(a, b)", () => any().create({ label: "x" }, { value: 1 }), /^Counter\.create takes one argument, not 2$/],
    ["createOrThrow(a, b)", () => any().createOrThrow({ label: "x" }, { value: 1 }), /^Counter\.createOrThrow takes one argument, not 2$/],
    ["where().create(a, b)", () => any().where({ label: "x" }).create({ value: 1 }, {}), /^Counter\.create takes one argument, not 2$/],
    ["record.update(a, b)", () => record().update({ label: "x" }, { value: 1 }), /^Counter\.update takes one argument, not 2$/],
    ["record.updateOrThrow(a, b)", () => record().updateOrThrow({ label: "x" }, { value: 1 }), /^Counter\.updateOrThrow takes one argument, not 2$/],
    ["record.assign(a, b)", () => record().assign({ label: "x" }, { value: 1 }), /^Counter\.assign takes one argument, not 2$/],
    ["record.destroy({ force })", () => record().destroy({ force: true }), /^Counter\.destroy takes no argument$/],
    ["record.destroyOrThrow(x)", () => record().destroyOrThrow({ force: true }), /^Counter\.destroyOrThrow takes no argument$/],
    ["record.reload({ lock })", () => record().reload({ lock: true }), /^Counter\.reload takes no argument$/],
    ["record.toSave(x)", () => record().toSave({ validate: false }), /^Counter\.toSave takes no argument$/],
    ["record.toDestroy(x)", () => record().toDestroy({}), /^Counter\.toDestroy takes no argument$/],
    ["record.save({ nope })", () => record().save({ nope: 1 }), /^Counter\.save: "nope" is not an option; the options are validate$/],
    ['record.save({ validate: "no" })', () => record().save({ validate: "no" }), /^Counter\.save: validate takes true or false, not "no"$/],
    ["record.save(a, b)", () => record().save({}, {}), /^Counter\.save takes one argument, not 2$/],
    ["record.save(null)", () => record().save(null), /^Counter\.save takes an options object, not null$/],
    ["record.saveOrThrow({ nope })", () => record().saveOrThrow({ nope: 1 }), /^Counter\.saveOrThrow: "nope" is not an option/],
    ["connect(db, { nope })", () => connect(env.DB, { nope: 1 } as never), /^connect: "nope" is not an option; the options are onQuery, session, retries, maxQueries, maxRowsRead, comment$/],
    ["between(a, b, { nope })", () => between(1, 2, { nope: true } as never), /^between: "nope" is not an option; the options are excludeEnd$/],
    ["isAttributeChanged(name, { form })", () => counter.isAttributeChanged("label", { form: "one" } as never), /^Counter\.isAttributeChanged: "form" is not an option; the options are from, to$/],
  ];
  for (const [name, call, message] of cases) {
    it(`${name} throws TypeError naming the Model and method, sending and writing nothing`, () => expectRefused(call, message));
  }
});

describe("a value that cannot be inspected (a revoked Proxy) is refused as any uncastable value is", () => {
  const attributes = ["name", "age", "score", "admin", "bornAt", "settings"] as const;
  for (const name of attributes) {
    it(`assigning it to ${name} throws TypeError naming User and ${name}; the record keeps its value`, async () => {
      const user = User.build({ name: "kept" });
      const before = user.readAttribute(name);
      await expectRefused(() => user.assign({ [name]: revokedProxy() }), new RegExp(`^User\\.${name}: the value cannot be inspected`));
      await expectRefused(() => User.build({ [name]: revokedProxy() }), new RegExp(`^User\\.${name}:`));
      await expectRefused(() => bound.User.insert({ name: "n", [name]: revokedProxy() } as never), new RegExp(`^User\\.${name}:`));
      await expectRefused(() => bound.User.updateAll({ [name]: revokedProxy() }), new RegExp(`^User\\.${name}:`));
      expect(user.readAttribute(name)).toEqual(before);
    });

    it(`as a condition on ${name}, alone, in a list or in a comparison, it throws TypeError naming User and ${name}`, async () => {
      const message = new RegExp(`^User\\.(where|findBy|whereNot): ${name}: the value cannot be inspected`);
      await expectRefused(() => bound.User.where({ [name]: revokedProxy() }), message);
      await expectRefused(() => bound.User.findBy({ [name]: [1, revokedProxy()] }), message);
      await expectRefused(() => bound.User.whereNot({ [name]: gt(revokedProxy()) }), message);
      await expectRefused(() => bound.User.where({ [name]: trappedProxy }), message);
    });
  }

  it("previewText shows it without throwing", () => {
    expect(previewText(revokedProxy())).toBe("[object]");
    expect(previewText(trappedProxy)).toBe("[object]");
  });
});

describe("a value quoted in a message shows readably, and never makes the message fail (previewText)", () => {
  const circular: Record<string, unknown> = { a: 1 };
  circular["self"] = circular;
  const throwingGetter = Object.defineProperty({}, "boom", { enumerable: true, get: () => { throw new Error("getter"); } });
  class Shown {}
  const previews: [string, unknown, string][] = [
    ["a plain object, by its entries", { id: 1, name: "a" }, '{ id: 1, name: "a" }'],
    ["an object of no prototype", Object.assign(Object.create(null), { id: 1 }), "{ id: 1 }"],
    ["keys that are no identifier, quoted; a BigInt with its n", { "a b": 1n }, '{ "a b": 1n }'],
    ["an array, by its items", [1, "a", null], '[1, "a", null]'],
    ["empty ones", [], "[]"],
    ["one level: what an array or object holds that is an array or object shows as […] or {…}", [[1], { password: "secret" }], "[[…], {…}]"],
    ["a circular one", circular, "{ a: 1, self: {…} }"],
    ["a long list, cut at 60 characters", Array.from({ length: 100_000 }, (_, index) => index), `[${Array.from({ length: 21 }, (_, index) => index).join(", ")}`.slice(0, 60) + "…"],
    ["an instance of a class, by the class", new Shown(), "[object Shown]"],
    ["a built-in, by its tag", new Map(), "[object Map]"],
    ["an object whose getter throws, by its kind", throwingGetter, "[object]"],
    ["a long text, quoted and cut", "x".repeat(100), `"${"x".repeat(60)}…"`],
  ];
  for (const [name, value, shown] of previews) {
    it(name, () => expect(previewText(value)).toBe(shown));
  }

  it("find of a key that is an object names it readably", async () => {
    const error = await thrown(() => User.find({ id: 1 } as never));
    expect((error as Error).message).toBe("User: no record with id { id: 1 }");
  });

  it("connect of a falsy binding quotes it", () => {
    expect(() => connect("" as never)).toThrow(new TypeError('connect: the D1 binding is ""; check its name'));
  });
});

describe("includes of an unknown name throws before any query is sent", () => {
  const loads: [string, (relation: Relation) => unknown][] = [
    ["toArray", (relation) => relation.toArray()],
    ["find", (relation) => relation.find(1)],
    ["find of several", (relation) => relation.find(1, 2)],
    ["first", (relation) => relation.first()],
    ["last", (relation) => (relation as unknown as { last(): unknown }).last()],
    ["take", (relation) => relation.take()],
    ["findBy", (relation) => relation.findBy({ label: "one" })],
    ["paginate", (relation) => (relation as unknown as { paginate(): unknown }).paginate()],
    ["paginate without a count", (relation) => (relation as unknown as { paginate(options: object): unknown }).paginate({ count: false })],
  ];
  for (const [name, load] of loads) {
    it(name, async () => {
      bound = listenAll();
      const error = await thrown(() => load(pluginView(bound.Counter.includes("unknown" as never))));
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toBe("Counter.includes: unknown is not an association of Counter");
      expect(bound.events).toEqual([]);
    });
  }

  it("a known association still preloads, with one query more", async () => {
    const { db, events } = listen();
    const loaded = await db.model(Writer).where({ id: writer.readAttribute("id") as string }).includes("posts").toArray();
    expect(loaded).toHaveLength(1);
    expect(events).toHaveLength(2);
  });
});

describe("sql fragments refuse what D1 cannot bind when they are made", () => {
  const unbindable: [string, unknown, RegExp][] = [
    ["a BigInt above SQLite's integers", 2n ** 63n, /^sql: 9223372036854775808n is beyond SQLite's 64-bit integers$/],
    ["a BigInt below SQLite's integers", -(2n ** 63n) - 1n, /^sql: -9223372036854775809n is beyond/],
    ["an Invalid Date", new Date(Number.NaN), /^sql: an Invalid Date cannot be bound$/],
    ["a Symbol", Symbol("s"), /^sql: a symbol is not a value$/],
    ["a function", () => 1, /^sql: a function is not a value$/],
    ["a plain object", { a: 1 }, /^sql: \{ a: 1 \} cannot be bound/],
    ["a Map", new Map(), /^sql: \[object Map\] cannot be bound/],
    ["undefined", undefined, /^sql: a value in an sql fragment is undefined/],
    ["a list", [1, 2], /^sql: a list cannot be bound/],
    ["NaN", Number.NaN, /^sql: NaN would be stored as NULL$/],
    ["Infinity", Infinity, /^sql: Infinity would be stored as NULL$/],
    ["a lone surrogate", "a\ud800b", /^sql: the text is not well-formed UTF-16/],
    ["a revoked Proxy", revokedProxy(), /^sql: the value cannot be inspected/],
  ];
  for (const [kind, value, message] of unbindable) {
    it(`${kind}`, async () => {
      await expectRefused(() => sql`${column("value")} = ${value}`, message);
      // Nested in another fragment too: the inner one is refused when it is made, before deleteAll.
      await expectRefused(() => bound.Counter.where(sql`${column("value")} = 1 OR ${sql`${value} = 1`}`).deleteAll(), message);
    });
  }

  it("binds a BigInt within SQLite's integers exactly, though D1 itself binds no BigInt", async () => {
    const big = 2n ** 62n + 1n;
    expect(Counter.where(sql`${column("id")} = ${big}`).toSql()).toEqual({ sql: expect.stringContaining('"id" = CAST(?1 AS INTEGER)'), params: [String(big)] });
    expect(await Counter.where(sql`${column("value")} = ${2n}`).pluck("id")).toEqual([2]);
    expect(await Counter.where(sql`${column("value")} < ${-(2n ** 63n)} OR ${column("value")} > ${2n ** 63n - 1n}`).count()).toBe(0);
    expect(await Counter.where(sql`${column("value")} < ${big}`).count()).toBe(2);
  });

  it("binds bytes, booleans, Dates and null as before", async () => {
    expect(await Counter.where(sql`${new Uint8Array([1])} IS NOT NULL AND ${true} AND ${new Date(0)} > '1960' AND ${null} IS NULL`).count()).toBe(2);
  });
});

describe("printing a Relation or Statement never throws", () => {
  it("whatever values it holds", () => {
    const relations = [
      User.where(sql`${column("age")} = ${2n ** 62n} OR ${new Uint8Array([1, 2])} OR ${new ArrayBuffer(2)} OR ${true} OR ${new Date(0)} OR ${null} OR ${"x"}`),
      User.where({ settings: { nested: [1, "x"] }, bornAt: new Date(0), admin: true, age: [1, null], score: between(1, 2) }),
      User.where({ email: "secret@example.com", name: ignoringCase("A") }).order(sql`${1n}`).limit(1).offset(2),
      User.none().includes("unknown" as never),
    ];
    for (const relation of relations) {
      expect(() => String(relation)).not.toThrow();
      expect(() => relation.toString()).not.toThrow();
      expect(() => inspect(relation)).not.toThrow();
      expect(String(relation)).toMatch(/^#<Relation User /);
    }
    const statements = [
      User.toInsert({ name: "n", settings: { a: 1 } }),
      User.where(sql`${2n}`).toUpdateAll({ age: 1 }),
      User.all().toDeleteAll(),
      pluginView(User.where(sql`${2n}`)).toSelect(),
    ];
    for (const statement of statements) {
      expect(() => String(statement)).not.toThrow();
      expect(() => inspect(statement)).not.toThrow();
      expect(() => JSON.stringify(statement.toSql())).not.toThrow();
    }
  });

  it("a Relation a compile hook refuses prints the refusal", () => {
    class Refusing extends ApplicationRecord("counters") {
      static {
        this.hook("relation:where", () => {
          throw new Error("refused by a plugin");
        });
      }
    }
    expect(String(Refusing.all())).toBe("#<Relation Refusing (cannot compile: refused by a plugin)>");
  });
});

describe("strings that are not well-formed UTF-16 are refused", () => {
  for (const text of ["a\ud800b", "\udc00", "x\ud83d"]) {
    const shown = JSON.stringify(text);
    it(`${shown} in an assignment: TypeError naming User and the attribute; the record keeps its value`, async () => {
      const user = User.build({ name: "kept" });
      const changed = user.changed();
      await expectRefused(() => user.assign({ name: text }), /^User\.name: the text is not well-formed UTF-16/);
      await expectRefused(() => user.writeAttribute("name", text), /^User\.name: the text/);
      await expectRefused(() => User.build({ settings: text }), /^User\.settings: the text/);
      expect(user.readAttribute("name")).toBe("kept");
      expect(user.changed()).toEqual(changed);
    });

    it(`${shown} in conditions: where, findBy, lists, comparisons, on any type`, async () => {
      await expectRefused(() => bound.User.where({ name: text }), /^User\.where: name: the text is not well-formed UTF-16/);
      await expectRefused(() => bound.User.findBy({ name: text }), /^User\.findBy: name: the text/);
      await expectRefused(() => bound.User.where({ name: ["ok", text] }), /^User\.where: name: the text/);
      await expectRefused(() => bound.User.whereNot({ name: gt(text) }), /^User\.whereNot: name: the text/);
      await expectRefused(() => bound.User.where({ name: ignoringCase(text) }), /^User\.where: name: the text/);
      await expectRefused(() => bound.User.where({ age: `1${text}` }), /^User\.where: age: the text/);
      await expectRefused(() => bound.User.find(text), /^User\.find: id: the text/);
      await expectRefused(() => bound.User.exists({ email: text }), /^User\.exists: email: the text/);
    });

    it(`${shown} in bulk writes and sql fragments`, async () => {
      await expectRefused(() => bound.User.insert({ name: text }), /^User\.name: the text/);
      await expectRefused(() => bound.User.insertAll([{ name: "ok" }, { name: text }]), /^User\.name: the text/);
      await expectRefused(() => bound.User.upsert({ id: "u1", name: text }), /^User\.name: the text/);
      await expectRefused(() => bound.User.updateAll({ name: text }), /^User\.name: the text/);
      await expectRefused(() => sql`${text}`, /^sql: the text is not well-formed UTF-16/);
    });
  }

  it("a well-formed surrogate pair is text like any other", async () => {
    const { User: Bound } = listen({ models: { User } });
    const user = await Bound.createOrThrow({ name: "a😀b" });
    expect((await Bound.findBy({ name: "a😀b" }))?.readAttribute("id")).toBe(user.readAttribute("id"));
    await Bound.where({ id: user.readAttribute("id") as string }).deleteAll();
  });
});

describe("Relation.with() checks RelationData as the Relation's own methods do", () => {
  const key = () => pluginView(Counter.all()).model.primaryKey;
  const malformed: [string, () => object, RegExp][] = [
    ["limit as SQL text", () => ({ limit: "1; DELETE FROM counters" }), /^Counter: Relation\.with: limit takes a whole number from 0, not "1; DELETE FROM counters"$/],
    ["offset as SQL text", () => ({ offset: "0; DELETE FROM counters" }), /^Counter: Relation\.with: offset takes a whole number from 0/],
    ["a negative limit", () => ({ limit: -1 }), /limit takes a whole number/],
    ["a fractional offset", () => ({ offset: 0.5 }), /offset takes a whole number/],
    ["a direction as SQL text", () => ({ order: [{ kind: "attribute", attribute: key(), direction: "asc; DELETE FROM counters" }] }), /order takes a list of order terms/],
    ["nulls as SQL text", () => ({ order: [{ kind: "attribute", attribute: key(), direction: "asc", nulls: "last; --" }] }), /order takes/],
    ["an sql order that is text", () => ({ order: [{ kind: "sql", fragment: "1; DELETE FROM counters" }] }), /order takes/],
    ["an operator as SQL text", () => ({ conditions: [{ kind: "compare", attribute: key(), operator: "= 1 OR 1 =", value: 1 }] }), /conditions takes a list of conditions/],
    ["a condition of unknown kind", () => ({ conditions: [{ kind: "raw", sql: "1 = 1" }] }), /conditions takes/],
    ["an sql condition that is text", () => ({ conditions: [{ kind: "sql", fragment: "1 = 1; DELETE FROM counters" }] }), /conditions takes/],
    ["a nested bad condition", () => ({ conditions: [{ kind: "not", conditions: [{ kind: "compare", attribute: key(), operator: "<>", value: 1 }] }] }), /conditions takes/],
    ["an attribute of another Model", () => ({ conditions: [{ kind: "null", attribute: pluginView(User.all()).model.primaryKey }] }), /conditions takes/],
    ["a made-up attribute", () => ({ select: [{ name: "x", column: 'x" FROM counters; --' }] }), /select takes the Model's attributes/],
    ["conditions that are not a list", () => ({ conditions: "1 = 1" }), /conditions takes/],
    ["distinct as text", () => ({ distinct: "yes" }), /distinct takes a boolean/],
    ["none as a number", () => ({ none: 1 }), /none takes a boolean/],
    ["includes of numbers", () => ({ includes: [5] }), /includes takes association names/],
    ["extensions that are not a plain object", () => ({ extensions: new Map() }), /extensions takes a plain object of plugin entries/],
    ["an entry that is not the kernel's", () => ({ tenant: "t1" }), /^Counter: Relation\.with: "tenant" is not an entry of a Relation's description; keep a plugin's own entries in extensions/],
  ];
  for (const [kind, changes, message] of malformed) {
    it(`refuses ${kind}`, () => expectRefused(() => pluginView(bound.Counter.all()).with(changes() as never).toArray(), message));
  }

  for (const [kind, input] of notPlainObjects) {
    it(`refuses ${kind} as the changes`, () => expectRefused(() => pluginView(bound.Counter.all()).with(input() as never), /^Counter: Relation\.with takes a plain object/));
  }

  it("passes well-formed changes and a plugin's own entries", async () => {
    const relation = pluginView(Counter.all()).with({ limit: 1, offset: 1, order: [{ kind: "attribute", attribute: key(), direction: "asc" }] });
    expect(await (relation as unknown as typeof Counter).pluck("id")).toEqual([2]);
    const tagged = pluginView(Counter.all()).with({ extensions: { tenant: "t1" } });
    expect(tagged.extension("tenant")).toBe("t1");
  });

  it("the compiler writes LIMIT and OFFSET only from whole numbers, whatever a relation:paging hook sets", async () => {
    class Paged extends ApplicationRecord("counters") {
      static {
        this.hook("relation:paging", ({ parts }) => {
          parts.limit = "1; DELETE FROM counters" as never;
        });
      }
    }
    await expectRefused(() => bound.db.model(Paged).all().toArray(), /^LIMIT takes a whole number from 0, not "1; DELETE FROM counters"$/);
  });
});

describe("paginate caps a whole perPage above maxPerPage, however large", () => {
  for (const perPage of ["99999999999999999999", 1e300, 2 ** 60, "1000", Number.MAX_SAFE_INTEGER + 2]) {
    it(`${String(perPage)}`, async () => {
      const page = await Counter.paginate({ perPage });
      expect(page.perPage).toBe(Counter.maxPerPage);
      expect(page.records.map((record) => record.readAttribute("id"))).toEqual([1, 2]);
    });
  }

  it("a page is still a safe whole number, and one whose rows lie beyond SQLite's integers is refused", async () => {
    await expectRefused(() => bound.Counter.paginate({ page: "99999999999999999999" }), /^Counter\.paginate: page must be a whole number/);
    await expectRefused(() => bound.Counter.paginate({ page: 1.5 }), /^Counter\.paginate: page must be/);
    class Wide extends ApplicationRecord("counters") {
      static override maxPerPage = 10_000;
    }
    await expectRefused(() => bound.db.model(Wide).paginate({ page: Number.MAX_SAFE_INTEGER, perPage: 10_000 }), /^Wide\.paginate: page takes a page whose first row is within SQLite's integers/);
    // A page from the query string: the request's fault, answered with a 400.
    const error = await thrown(() => bound.db.model(Wide).paginate({ page: Number.MAX_SAFE_INTEGER, perPage: 10_000 }));
    expect(error).toBeInstanceOf(CastError);
    expect(error).toMatchObject({ attribute: "page", value: Number.MAX_SAFE_INTEGER });
  });
});

describe("refused values", () => {
  const target = { model: User, attribute: "name" };

  it("are CastError when a request can carry them (text, null, arrays and plain objects), TypeError when only code can give them", () => {
    for (const value of ["\ud800", null, undefined, 1, ["\ud800"], { name: "\ud800" }]) expect(refusedValueError("m", value, target)).toBeInstanceOf(CastError);
    for (const value of [10n, Symbol("s"), () => 1, new Map(), new Plain(), revokedProxy()]) {
      const error = refusedValueError("m", value, target);
      expect(error).toBeInstanceOf(TypeError);
      expect(error).not.toBeInstanceOf(CastError);
    }
  });

  it("say why a value is unfit, and nothing for a fit one", () => {
    expect(unfitValue(Symbol("s"))).toBe("a symbol is not a value");
    expect(unfitValue(() => 1)).toBe("a function is not a value");
    expect(unfitValue("\udc00")).toMatch(/lone surrogate/);
    expect(unfitValue(revokedProxy())).toMatch(/revoked Proxy/);
    for (const value of [null, undefined, 0, 1n, true, "é", {}, [], new Map()]) expect(unfitValue(value)).toBeUndefined();
  });

  it("refuse only an object that cannot be inspected, naming where it was given", () => {
    for (const value of [null, undefined, 1, "x", {}, [], new Map()]) expect(() => refuseUninspectable("User.where", "conditions", value)).not.toThrow();
    for (const value of [revokedProxy(), trappedProxy]) expect(() => refuseUninspectable("User.where", "conditions", value)).toThrow(TypeError);
    expect(() => refuseUninspectable("User.where", "conditions", revokedProxy())).toThrow(/^User\.where takes conditions, not/);
  });
});
