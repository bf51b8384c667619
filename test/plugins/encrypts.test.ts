/** The encrypts plugin: no plaintext reaches D1 on any write or condition, every load decrypts, keys rotate. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import {
  ActiveRecord,
  batch,
  connect,
  DecryptionError,
  defineApplicationRecord,
  EncryptionError,
  encrypts,
  belongsTo,
  gt,
  hasMany,
  InvalidModel,
  type QueryEvent,
  column,
  sql,
  withDatabase,
} from "../../src/index.js";
import { recordRoundTrips } from "../helpers/round-trips.js";
import { rejectionOf } from "../helpers/errors.js";

const schema = {
  encrypted_teams: { id: "integer", name: { type: "string", null: false } },
  encrypted_badges: { id: "integer", personId: { type: "integer", null: false }, label: { type: "string", null: false } },
  encrypted_people: { id: "integer", email: "string", note: "string", name: { type: "string", null: false }, age: "integer", teamId: "integer" },
  encrypted_memberships: { id: "integer", teamId: { type: "integer", null: false }, personId: { type: "integer", null: false } },
  encrypted_agent_teams: { id: "integer", name: { type: "string", null: false } },
  encrypted_agents: { id: "integer", type: "string", name: { type: "string", null: false }, secret: "string", alias: "string", visits: "integer", teamId: "integer" },
} as const;

const KEY_A = "UztXy7xYILLuU3J4qWW3MeA+qr2nS//Ch4FJrW0/enQ=";
const KEY_B = "JGXhOh/dX+7b1DyX6Wf4FA/nJH1VghEg/mEEZFFi/fI=";
/** The keys the plugin reads on each use, as a Worker reads its secrets; tests rotate them. */
const keys: { current: unknown; previous: unknown[] } = { current: KEY_A, previous: [] };

class EncryptedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(encrypts({ key: () => keys.current, previousKeys: () => keys.previous }));
  }
}
const Encrypted = defineApplicationRecord(schema, EncryptedBase);

class Person extends Encrypted("encrypted_people") {
  static {
    this.encrypts("email", { deterministic: true });
    this.encrypts("note");
  }
}

class Team extends Encrypted("encrypted_teams") {
  people = hasMany(Person, { foreignKey: "teamId" });
}

/** The same table without encryption: what each path costs when nothing is encrypted. */
class PlainBase extends ActiveRecord {
  static override binding = "DB";
}
class PlainPerson extends defineApplicationRecord(schema, PlainBase)("encrypted_people") {}

/** A binding over the test database keeping every SQL text and bound value sent: all that reaches D1. */
function recordingWire(): { binding: D1Database; sent: unknown[] } {
  const sent: unknown[] = [];
  const inners = new WeakMap<object, D1PreparedStatement>();
  const wrap = (inner: D1PreparedStatement): D1PreparedStatement => {
    const statement: D1PreparedStatement = Object.assign(Object.create(inner) as D1PreparedStatement, {
      bind: (...values: unknown[]) => (sent.push(...values), wrap(inner.bind(...values))),
      all: () => inner.all(),
      run: () => inner.run(),
      first: (column?: string) => (column === undefined ? inner.first() : inner.first(column)),
      raw: (options?: { columnNames?: boolean }) => inner.raw(options as { columnNames: true }),
    });
    inners.set(statement, inner);
    return statement;
  };
  const binding = Object.assign(Object.create(env.DB) as D1Database, {
    prepare: (sql: string) => (sent.push(sql), wrap(env.DB.prepare(sql))),
    batch: (statements: D1PreparedStatement[]) => env.DB.batch(statements.map((statement) => inners.get(statement)!)),
  });
  return { binding, sent };
}

/** Runs `work` on a database over the wire recorder, counting round trips and collecting query events. */
async function observed(work: () => Promise<unknown>) {
  const wire = recordingWire();
  const { binding, roundTrips } = recordRoundTrips(wire.binding);
  const events: QueryEvent[] = [];
  await withDatabase(connect(binding, { onQuery: (event) => events.push(event) }), work);
  return { sent: wire.sent, roundTrips, events };
}

async function storedRows(): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare("SELECT * FROM encrypted_people ORDER BY id").all<Record<string, unknown>>()).results;
}

beforeEach(async () => {
  keys.current = KEY_A;
  keys.previous = [];
  await env.DB.exec(
    "DELETE FROM encrypted_people; DELETE FROM encrypted_teams; DELETE FROM encrypted_badges; DELETE FROM encrypted_memberships; DELETE FROM encrypted_agents; DELETE FROM encrypted_agent_teams;",
  );
});

type People = typeof Person;

/** Each way a value or a condition reaches D1; `secret` must never be sent, shown in an event, or stored as it is. */
const writePaths: Array<[string, (M: People, secret: string) => Promise<unknown>]> = [
  ["create", (M, secret) => M.createOrThrow({ name: "a", email: secret, note: secret })],
  ["update", async (M, secret) => {
    const person = await M.createOrThrow({ name: "a" });
    person.email = secret;
    person.note = secret;
    await person.saveOrThrow();
  }],
  ["batch of toSave", (M, secret) => batch([M.build({ name: "a", email: secret, note: secret }).toSave()])],
  ["insert", (M, secret) => M.insert({ name: "a", email: secret, note: secret })],
  ["insertAll", (M, secret) => M.insertAll([{ name: "a", email: secret, note: secret }, { name: "b", email: `${secret}-2`, note: null }])],
  ["upsert", async (M, secret) => {
    await M.upsert({ name: "a", email: secret, note: secret }, { uniqueBy: ["email"] });
    await M.upsert({ name: "b", email: secret, note: `${secret}-2` }, { uniqueBy: ["email"] });
  }],
  ["upsertAll", (M, secret) => M.upsertAll([{ name: "a", email: secret, note: secret }], { uniqueBy: ["email"] })],
  ["updateAll", async (M, secret) => {
    await M.insert({ name: "a" });
    await M.where({ name: "a" }).updateAll({ email: secret, note: secret });
  }],
  ["updateAll by an encrypted condition", async (M, secret) => {
    await M.where({ email: secret }).updateAll({ name: "b" });
    await M.where({ email: [secret, "other"] }).updateAll({ name: "c" });
  }],
  ["deleteAll by an encrypted condition", (M, secret) => M.where({ email: secret }).deleteAll()],
  ["conditions of loads", async (M, secret) => {
    await M.findBy({ email: secret });
    await M.where({ email: [secret, "other"] }).toArray();
    await M.whereNot({ email: secret }).first();
    await M.where({ email: secret }).count();
    await M.exists({ email: secret });
    await M.where({ email: secret }).pluck("name");
    await M.where({ email: secret }).paginate({ page: 1 });
    await M.where({ email: secret }).explain();
  }],
];

describe("encrypts: no plaintext reaches D1", () => {
  for (const [name, write] of writePaths) {
    it(`${name}: sends, shows and stores only ciphertext, in as many round trips as without encryption`, async () => {
      const secret = `secret-${name.replace(/\W/g, "-")}@example.com`;
      const encrypted = await observed(() => write(Person, secret));
      for (const value of encrypted.sent) expect(String(value), name).not.toContain(secret);
      expect(JSON.stringify(encrypted.events)).not.toContain(secret);
      const stored = await storedRows();
      expect(JSON.stringify(stored)).not.toContain(secret);
      for (const row of stored) for (const column of ["email", "note"]) if (row[column] !== null) expect(row[column]).toMatch(/^enc1\.[0-9a-f]{8}\./);

      await env.DB.exec("DELETE FROM encrypted_people");
      const plain = await observed(() => write(PlainPerson as unknown as People, secret));
      expect(encrypted.roundTrips.map((trip) => trip.length)).toEqual(plain.roundTrips.map((trip) => trip.length));
    });
  }
});

describe("encrypts: every load decrypts", () => {
  it("find, findBy, where, first, reload, the row a create returns, pluck, a page and a batch's select give plaintext", async () => {
    const ann = await Person.createOrThrow({ name: "Ann", email: "ann@example.com", note: "likes tea" });
    // The row the INSERT returned went through the load stage: the record holds plaintext, with no change pending.
    expect([ann.email, ann.note, ann.isChanged()]).toEqual(["ann@example.com", "likes tea", false]);
    await Person.createOrThrow({ name: "Bob", email: "bob@example.com", note: null });

    const found = await Person.find(ann.id);
    expect([found.email, found.note]).toEqual(["ann@example.com", "likes tea"]);
    expect((await Person.findBy({ email: "bob@example.com" }))?.name).toBe("Bob");
    expect((await Person.order({ name: "asc" }).toArray()).map((person) => person.email)).toEqual(["ann@example.com", "bob@example.com"]);
    expect((await Person.first())?.note).toBe("likes tea");
    await env.DB.prepare("UPDATE encrypted_people SET name = 'Annie' WHERE id = ?").bind(ann.id).run();
    await ann.reload();
    expect([ann.name, ann.email, ann.note]).toEqual(["Annie", "ann@example.com", "likes tea"]);
    expect(await Person.order({ name: "asc" }).pluck("email")).toEqual(["ann@example.com", "bob@example.com"]);
    expect(await Person.order({ name: "asc" }).pluck("name", "note")).toEqual([["Annie", "likes tea"], ["Bob", null]]);
    expect((await Person.order({ name: "asc" }).paginate({ page: 1 })).records.map((person) => person.email)).toEqual(["ann@example.com", "bob@example.com"]);
    const [selected] = await batch([Person.where({ name: "Bob" }).toSelect()]);
    expect((selected as Person[]).map((person) => person.email)).toEqual(["bob@example.com"]);
  });

  it("decrypts the records another Model's includes preloads, in the same round trip", async () => {
    const team = await Team.createOrThrow({ name: "Red" });
    await Person.insertAll([{ name: "Ann", email: "ann@example.com", note: "n1", teamId: team.id }, { name: "Bob", email: "bob@example.com", note: null, teamId: team.id }]);
    const { roundTrips } = await observed(async () => {
      const [loaded] = await Team.includes("people").toArray();
      const people = await loaded!.people().toArray();
      expect(people.map((person) => [person.email, person.note]).sort()).toEqual([["ann@example.com", "n1"], ["bob@example.com", null]]);
    });
    expect(roundTrips).toHaveLength(1);
  });

  it("stores equal plaintexts as equal ciphertexts in deterministic mode, and as different ones otherwise", async () => {
    await Person.insertAll([{ name: "a", email: "same@example.com", note: "same" }, { name: "b", email: "other@example.com", note: "same" }]);
    const [first, second] = await storedRows();
    expect(first!["note"]).not.toBe(second!["note"]);
    await Person.where({ name: "a" }).deleteAll();
    await Person.insert({ name: "c", email: "same@example.com" });
    expect((await storedRows())[1]!["email"]).toBe(first!["email"]);
    // One ciphertext per value: a unique index on it refuses the same email again.
    await expect(Person.insert({ name: "d", email: "same@example.com" })).rejects.toThrow(/must be unique/);
  });

  it("matches equality conditions: where, findBy, a list, whereNot, exists, count", async () => {
    await Person.insertAll([{ name: "a", email: "a@example.com" }, { name: "b", email: "b@example.com" }, { name: "c", email: null }]);
    expect((await Person.findBy({ email: "b@example.com" }))?.name).toBe("b");
    expect(await Person.where({ email: ["a@example.com", "b@example.com", null] }).order({ name: "asc" }).pluck("name")).toEqual(["a", "b", "c"]);
    expect(await Person.whereNot({ email: "a@example.com" }).pluck("name")).toEqual(["b"]);
    expect(await Person.exists({ email: "c@example.com" })).toBe(false);
    expect(await Person.where({ email: "a@example.com" }).count()).toBe(1);
    expect(await Person.where({ email: "a@example.com" }).updateAll({ name: "A" })).toBe(1);
    expect(await Person.where({ email: ["A@example.com"] }).deleteAll()).toBe(0);
  });
});

/** The plaintext the scopes below compare with: it must never reach D1 or a query event. */
const SCOPED = "scoped@example.com";

/** People of one address by default: a default scope on the deterministic attribute. */
class ScopedPerson extends Encrypted("encrypted_people") {
  static {
    this.encrypts("email", { deterministic: true });
    this.encrypts("note");
    this.defaultScope((q) => q.where({ email: SCOPED }));
  }
  team = belongsTo(ScopedTeam, { foreignKey: "teamId" });
}

/** A team's people through an association scope on the encrypted attribute, and through the default-scoped Model. */
class ScopedTeam extends Encrypted("encrypted_teams") {
  scoped = hasMany(Person, { foreignKey: "teamId", scope: (q) => q.where({ email: SCOPED }) });
  defaulted = hasMany(ScopedPerson, { foreignKey: "teamId" });
}

describe("encrypts: default scopes and association scopes on an encrypted attribute", () => {
  let team: ScopedTeam;
  let scopedId: number;

  beforeEach(async () => {
    team = await ScopedTeam.createOrThrow({ name: "Red" });
    await Person.insertAll([
      { name: "Ann", email: SCOPED, note: "n1", teamId: team.id },
      { name: "Bob", email: "other@example.com", note: null, teamId: team.id },
    ]);
    scopedId = (await Person.findByOrThrow({ name: "Ann" })).id!;
  });

  /** Each read path through those scopes, and the names it must give: only the scoped person's. */
  const readPaths: Array<[string, () => Promise<unknown>, unknown]> = [
    ["toArray", async () => (await ScopedPerson.all().toArray()).map((person) => person.name), ["Ann"]],
    ["find", async () => (await ScopedPerson.find(scopedId)).name, "Ann"],
    ["first", async () => (await ScopedPerson.first())?.name, "Ann"],
    ["count and exists", async () => [await ScopedPerson.count(), await ScopedPerson.exists({ name: "Ann" })], [1, true]],
    ["pluck", () => ScopedPerson.pluck("name", "email"), [["Ann", SCOPED]]],
    ["paginate", async () => (await ScopedPerson.paginate({ page: 1 })).records.map((person) => person.email), [SCOPED]],
    ["reload", async () => {
      const person = await ScopedPerson.find(scopedId);
      await person.reload();
      return person.email;
    }, SCOPED],
    ["an association scope", async () => (await (await ScopedTeam.find(team.id)).scoped().toArray()).map((person) => person.name), ["Ann"]],
    ["a hasMany of the default-scoped Model", async () => (await (await ScopedTeam.find(team.id)).defaulted().toArray()).map((person) => person.name), ["Ann"]],
    ["a belongsTo load", async () => (await (await ScopedPerson.find(scopedId)).team.load())?.name, "Red"],
    ["includes of an association scope", async () => {
      const [loaded] = await ScopedTeam.includes("scoped").toArray();
      return (await loaded!.scoped().toArray()).map((person) => person.email);
    }, [SCOPED]],
    ["includes of the default-scoped Model", async () => {
      const [loaded] = await ScopedTeam.includes("defaulted").toArray();
      return (await loaded!.defaulted().toArray()).map((person) => person.name);
    }, ["Ann"]],
    ["nested includes", async () => {
      const [person] = await ScopedPerson.includes({ team: ["scoped", "defaulted"] }).toArray();
      const loaded = person!.team.get()!;
      return [(await loaded.scoped().toArray()).length, (await loaded.defaulted().toArray()).length];
    }, [1, 1]],
    ["includes on a page", async () => {
      const [loaded] = (await ScopedTeam.includes("defaulted").paginate({ page: 1 })).records;
      return (await loaded!.defaulted().toArray()).map((person) => person.name);
    }, ["Ann"]],
    ["unscoped", async () => (await ScopedPerson.unscoped().where({ email: SCOPED }).toArray()).map((person) => person.name), ["Ann"]],
  ];

  for (const [path, read, expected] of readPaths) {
    it(`${path}: encrypts the scope's condition once per statement, so its plaintext never reaches D1 or a query event`, async () => {
      let result: unknown;
      const { sent, events, roundTrips } = await observed(async () => void (result = await read()));
      expect(result).toEqual(expected);
      for (const value of sent) expect(String(value), path).not.toContain(SCOPED);
      for (const event of events) for (const param of event.params) expect(String(param), path).not.toContain(SCOPED);
      // The preloads join the batch of their owners' SELECT, and the loaded association answers without a query.
      if (path.includes("includes")) expect(roundTrips).toHaveLength(1);
    });
  }
});

describe("encrypts: the sync forms of a Model whose default scope compares an encrypted attribute", () => {
  const syncForms: Array<[string, () => unknown]> = [
    ["toSql()", () => ScopedPerson.all().toSql()],
    ["toSelect()", () => ScopedPerson.where({ name: "Ann" }).toSelect()],
    ["toUpdateAll()", () => ScopedPerson.all().toUpdateAll({ name: "B" })],
    ["toDeleteAll()", () => ScopedPerson.all().toDeleteAll()],
  ];

  for (const [method, form] of syncForms) {
    it(`${method} refuses, naming the Model and the async method, rather than compile the scope's plaintext`, () => {
      expect(form).toThrow(new RegExp(`^ScopedPerson\\.${method.replace(/[()]/g, "\\$&")}: .*; use await \\w+\\(`));
    });
  }

  it("printing shows the refusal, never the scope's plaintext", () => {
    const printed = String(ScopedPerson.where({ name: "Ann" }));
    expect(printed).toContain("cannot compile: ScopedPerson.toString(): a plugin prepares");
    expect(printed).not.toContain(SCOPED);
  });

  it("a batch gets the refusal before anything is sent; the async forms write the scoped rows only", async () => {
    await Person.insertAll([{ name: "Ann", email: SCOPED }, { name: "Bob", email: "other@example.com" }]);
    const { sent, events } = await observed(async () => {
      expect(() => batch([ScopedPerson.all().toSelect()])).toThrow(/ScopedPerson\.toSelect\(\)/);
      expect(await ScopedPerson.all().updateAll({ note: null, age: 7 })).toBe(1);
      expect(await ScopedPerson.where({ age: 7 }).count()).toBe(1);
      expect(await ScopedPerson.all().deleteAll()).toBe(1);
    });
    for (const value of sent) expect(String(value)).not.toContain(SCOPED);
    for (const event of events) for (const param of event.params) expect(String(param)).not.toContain(SCOPED);
    expect((await storedRows()).map((row) => row["name"])).toEqual(["Bob"]);
  });

  it("a Model with encrypts but no encrypted condition still compiles synchronously", () => {
    expect(Person.where({ name: "Ann" }).toSql()).toEqual({ sql: `SELECT * FROM "encrypted_people" WHERE "name" = ?1`, params: ["Ann"] });
  });
});

/** A badge of a person: what the through associations below reach. */
class Badge extends Encrypted("encrypted_badges") {
  holder = belongsTo(BadgedPerson, { foreignKey: "personId" });
}

/** A person with badges; the email is encrypted deterministically. */
class BadgedPerson extends Encrypted("encrypted_people") {
  static {
    this.encrypts("email", { deterministic: true });
  }
  badges = hasMany(Badge, { foreignKey: "personId" });
  team = belongsTo(BadgedTeam, { foreignKey: "teamId" });
}

/** The same people, of one address by default: a default scope on the encrypted attribute. */
class DefaultedBadgedPerson extends Encrypted("encrypted_people") {
  static {
    this.encrypts("email", { deterministic: true });
    this.defaultScope((q) => q.where({ email: SCOPED }));
  }
  badges = hasMany(Badge, { foreignKey: "personId" });
}

/**
 * A team's badges through people narrowed on the encrypted attribute (by the association's scope, or by the person's
 * default scope), and the holders of those badges through that through association, narrowed on it again.
 */
class BadgedTeam extends Encrypted("encrypted_teams") {
  scoped = hasMany(BadgedPerson, { foreignKey: "teamId", scope: (q) => q.where({ email: SCOPED }) });
  defaulted = hasMany(DefaultedBadgedPerson, { foreignKey: "teamId" });
  scopedBadges = hasMany(Badge, { through: this.scoped, source: "badges" });
  defaultedBadges = hasMany(Badge, { through: this.defaulted, source: "badges" });
  holders = hasMany(BadgedPerson, { through: this.scopedBadges, source: "holder", scope: (q) => q.where({ email: SCOPED }) });
}

describe("encrypts: through associations whose hops compare an encrypted attribute", () => {
  let team: BadgedTeam;

  beforeEach(async () => {
    team = await BadgedTeam.createOrThrow({ name: "Red" });
    const [ann, bob] = [
      await BadgedPerson.createOrThrow({ name: "Ann", email: SCOPED, teamId: team.id }),
      await BadgedPerson.createOrThrow({ name: "Bob", email: "other@example.com", teamId: team.id }),
    ];
    await Badge.insertAll([{ personId: ann.id!, label: "gold" }, { personId: bob.id!, label: "silver" }]);
  });

  const labels = (badges: readonly Badge[]) => badges.map((badge) => badge.label);
  const loaded = async () => (await BadgedTeam.find(team.id)) as BadgedTeam;

  /** Each read path through those hops, its result (the scoped person's badge only), and its round trips. */
  const readPaths: Array<[string, () => Promise<unknown>, unknown, number]> = [
    ["the reader, through an association scope", async () => labels(await (await loaded()).scopedBadges().toArray()), ["gold"], 2],
    ["the reader, through a default scope", async () => labels(await (await loaded()).defaultedBadges().toArray()), ["gold"], 2],
    ["count, exists and pluck on the reader", async () => {
      const badges = (await loaded()).scopedBadges();
      return [await badges.count(), await badges.exists(), await badges.pluck("label")];
    }, [1, true, ["gold"]], 4],
    ["a through a through, narrowed by its own scope too", async () => (await (await loaded()).holders().toArray()).map((person) => person.name), ["Ann"], 2],
    ["includes", async () => {
      const [owner] = await BadgedTeam.includes("scopedBadges", "defaultedBadges").toArray();
      return [labels(await owner!.scopedBadges().toArray()), labels(await owner!.defaultedBadges().toArray())];
    }, [["gold"], ["gold"]], 1],
    ["includes of a through a through with a scope", async () => {
      const [owner] = await BadgedTeam.includes("holders").toArray();
      return (await owner!.holders().toArray()).map((person) => person.name);
    }, ["Ann"], 1],
    ["withCount and whereCount", async () => {
      const [counted] = await BadgedTeam.withCount("scopedBadges", "holders").toArray();
      const matching = await BadgedTeam.whereCount("defaultedBadges", "=", 1).pluck("name");
      return [counted!.scopedBadgesCount, counted!.holdersCount, matching];
    }, [1, 1, ["Red"]], 2],
  ];

  for (const [path, read, expected, trips] of readPaths) {
    it(`${path}: the hops' conditions are encrypted as their own queries' are, so their plaintext never reaches D1`, async () => {
      let result: unknown;
      const { sent, events, roundTrips } = await observed(async () => void (result = await read()));
      expect(result).toEqual(expected);
      for (const value of sent) expect(String(value), path).not.toContain(SCOPED);
      for (const event of events) for (const param of event.params) expect(String(param), path).not.toContain(SCOPED);
      expect(roundTrips).toHaveLength(trips);
    });
  }

  it("what compiles synchronously still refuses the hops' conditions rather than send plaintext", async () => {
    const team = await loaded();
    expect(() => team.scopedBadges().toSql()).toThrow(TypeError);
    expect(() => BadgedTeam.withCount("scopedBadges").toSql()).toThrow(TypeError);
  });
});

/** A team whose destroy handles, by `dependent`, its people of one encrypted address, directly or as a through association's join rows. */
function dependentTeam(dependent: "deleteAll" | "destroy" | "nullify", through: boolean) {
  return class DependentTeam extends Encrypted("encrypted_teams") {
    scoped = hasMany(BadgedPerson, { foreignKey: "teamId", scope: (q) => q.where({ email: SCOPED }), ...(through ? {} : { dependent }) });
    // The people's teams through them: its dependent handles the join rows, the scoped people.
    scopedTeams = hasMany(BadgedTeam, { through: this.scoped, source: "team", ...(through ? { dependent } : {}) });
  };
}

describe("encrypts: dependents in a scope on an encrypted attribute", () => {
  const cases: Array<["deleteAll" | "destroy" | "nullify", boolean, Array<[string, boolean]>]> = [
    ["deleteAll", false, [["Bob", true]]],
    ["destroy", false, [["Bob", true]]],
    ["nullify", false, [["Ann", false], ["Bob", true]]],
    ["deleteAll", true, [["Bob", true]]],
    ["destroy", true, [["Bob", true]]],
  ];
  for (const [dependent, through, left] of cases) {
    it(`${dependent}${through ? " of a through association's join rows" : ""}: the destroy reaches the scoped rows by ciphertext only`, async () => {
      const Team = dependentTeam(dependent, through);
      const team = await Team.createOrThrow({ name: "Red" });
      await BadgedPerson.createOrThrow({ name: "Ann", email: SCOPED, teamId: team.id });
      await BadgedPerson.createOrThrow({ name: "Bob", email: "other@example.com", teamId: team.id });
      const { sent, events, roundTrips } = await observed(async () => void (await (await Team.find(team.id)).destroyOrThrow()));
      const people = await BadgedPerson.order({ name: "asc" }).toArray();
      expect(people.map((person) => [person.name, person.teamId === team.id])).toEqual(left);
      for (const value of sent) expect(String(value)).not.toContain(SCOPED);
      for (const event of events) for (const param of event.params) expect(String(param)).not.toContain(SCOPED);
      // The find, then the destroy's one batch; encrypts plans each person's write, so a destroyed one is read first.
      expect(roundTrips).toHaveLength(dependent === "destroy" ? 3 : 2);
    });
  }
});

/** A team's membership of a person: a join Model that encrypts nothing, so has no hook to prepare its own rows. */
class Membership extends Encrypted("encrypted_memberships") {
  person = belongsTo(BadgedPerson, { foreignKey: "personId" });
}

/** A team's people of one encrypted address through its memberships: the through association's own scope compares it. */
class MemberTeam extends Encrypted("encrypted_teams") {
  memberships = hasMany(Membership, { foreignKey: "teamId" });
  scopedMembers = hasMany(BadgedPerson, { through: this.memberships, source: "person", scope: (q) => q.where({ email: SCOPED }), dependent: "deleteAll" });
}

describe("encrypts: writes through an association whose scope compares an encrypted attribute of its targets", () => {
  let team: MemberTeam;
  let ann: BadgedPerson;
  let bob: BadgedPerson;

  beforeEach(async () => {
    team = await MemberTeam.createOrThrow({ name: "Red" });
    ann = await BadgedPerson.createOrThrow({ name: "Ann", email: SCOPED, teamId: team.id });
    bob = await BadgedPerson.createOrThrow({ name: "Bob", email: "other@example.com", teamId: team.id });
    await Membership.insertAll([{ teamId: team.id!, personId: ann.id! }, { teamId: team.id!, personId: bob.id! }]);
  });

  const members = async () => (await Membership.order({ id: "asc" }).pluck("personId")) as number[];
  const expectNoPlaintext = ({ sent, events }: { sent: unknown[]; events: QueryEvent[] }) => {
    for (const value of sent) expect(String(value)).not.toContain(SCOPED);
    for (const event of events) for (const param of event.params) expect(String(param)).not.toContain(SCOPED);
  };

  it("setIds reads the join rows the scope admits in its one batch, by ciphertext: the others stay", async () => {
    const seen = await observed(async () => void (await (await MemberTeam.find(team.id)).scopedMembers().setIds([])));
    expect(await members()).toEqual([bob.id]);
    expectNoPlaintext(seen);
    // The find, the batch of the targets and the join rows, then the write.
    expect(seen.roundTrips).toHaveLength(3);
    await (await MemberTeam.find(team.id)).scopedMembers().setIds([ann.id!]);
    expect(await members()).toEqual([bob.id, ann.id]);
  });

  it("a destroy's dependent deletes the join rows the scope admits, by ciphertext: the others stay", async () => {
    const seen = await observed(async () => void (await (await MemberTeam.find(team.id)).destroyOrThrow()));
    expect(await members()).toEqual([bob.id]);
    expectNoPlaintext(seen);
    expect(seen.roundTrips).toHaveLength(2);
  });
});

describe("encrypts: key rotation", () => {
  it("reads rows written under a previous key, writes with the newest, and finds both by equality", async () => {
    const old = await Person.createOrThrow({ name: "old", email: "old@example.com", note: "from before" });
    const [before] = await storedRows();
    keys.current = KEY_B;
    keys.previous = [KEY_A];
    const reloaded = await Person.find(old.id);
    expect([reloaded.email, reloaded.note]).toEqual(["old@example.com", "from before"]);
    await Person.createOrThrow({ name: "new", email: "new@example.com" });
    const [, written] = await storedRows();
    const keyId = (stored: unknown) => String(stored).split(".")[1];
    expect(keyId(written!["email"])).not.toBe(keyId(before!["email"]));
    // A condition matches the rows of every key: the old row is found by its email without being written again.
    expect(await Person.where({ email: ["old@example.com", "new@example.com"] }).order({ name: "asc" }).pluck("name")).toEqual(["new", "old"]);
    expect((await Person.findBy({ email: "old@example.com" }))?.name).toBe("old");
    // Saving the old row writes it under the newest key.
    reloaded.note = "rewritten";
    await reloaded.saveOrThrow();
    const [after] = await storedRows();
    expect(keyId(after!["note"])).toBe(keyId(written!["email"]));
  });

  it("reads the key from a Worker secret by name", async () => {
    class SecretBase extends ActiveRecord {
      static override binding = "DB";
      static {
        this.use(encrypts({ key: "ENCRYPTS_TEST_KEY" }));
      }
    }
    class Secretive extends defineApplicationRecord(schema, SecretBase)("encrypted_people") {
      static {
        this.encrypts("note");
      }
    }
    const made = await Secretive.createOrThrow({ name: "s", note: "hidden" });
    expect((await Secretive.find(made.id)).note).toBe("hidden");
    await expect(Person.find(made.id)).rejects.toThrow(DecryptionError);
  });
});

describe("encrypts: refusals", () => {
  it("refuses the sync to... forms that would write an encrypted value, naming the Model, attribute and method", () => {
    expect(() => Person.toInsert({ name: "a", email: "x@example.com" })).toThrow(
      new TypeError("Person.toInsert: email is encrypted, which needs the async write stage; use await Person.insert(...) instead"),
    );
    expect(() => Person.toInsertAll([{ name: "a", note: "x" }])).toThrow(/Person\.toInsertAll: note is encrypted/);
    expect(() => Person.toUpsert({ name: "a", email: "x" })).toThrow(/Person\.toUpsert: email is encrypted/);
    expect(() => Person.where({ name: "a" }).toUpdateAll({ note: "x" })).toThrow(/Person\.toUpdateAll: note is encrypted/);
    // Null is no plaintext: it is written as it is.
    expect(Person.toInsert({ name: "a", note: null }).toSql().sql).toMatch(/^INSERT/);
  });

  it("refuses an sql fragment as an encrypted attribute's value in updateAll and toUpdateAll: the database cannot encrypt it", async () => {
    const fragment = sql`lower(${column("name")})`;
    const error = await rejectionOf(Person.where({ name: "a" }).updateAll({ note: fragment }));
    expect(error).toEqual(new TypeError("Person.updateAll: note is encrypted, and an sql fragment is computed by the database, which cannot encrypt it; give the value itself"));
    expect(() => Person.where({ name: "a" }).toUpdateAll({ email: fragment })).toThrow(/Person\.toUpdateAll: email is encrypted, and an sql fragment/);
    // A fragment on a plain attribute beside them is the database's to compute.
    expect(Person.where({ name: "a" }).toUpdateAll({ name: fragment }).toSql().sql).toContain(`"name" = (lower("name"))`);
  });

  it("refuses to compile a plaintext condition synchronously: toSql, toSelect, toDeleteAll, naming the Model, the method and the async one", () => {
    const refusal = (method: string, instead: string) =>
      new TypeError(
        `Person.${method}: a plugin prepares this Relation's conditions with work that must be awaited (a relation:prepare hook: an encryption, say), which a sync form cannot wait for; use await ${instead} instead`,
      );
    expect(() => Person.where({ email: "x@example.com" }).toSql()).toThrow(refusal("toSql()", "toArray()"));
    expect(() => Person.whereNot({ email: "x@example.com" }).toSelect()).toThrow(refusal("toSelect()", "toArray()"));
    expect(() => Person.where({ email: ["x"] }).toDeleteAll()).toThrow(refusal("toDeleteAll()", "deleteAll()"));
    expect(() => Person.where({ email: ["x"] }).toUpdateAll({ name: "n" })).toThrow(refusal("toUpdateAll()", "updateAll(...)"));
    expect(Person.where({ email: null }).toSql().sql).toContain(`"email" IS NULL`);
  });

  it("a refused sync form leaves no unhandled rejection, even when the encryption it started fails", async () => {
    keys.current = "not a key";
    expect(() => Person.where({ email: "x@example.com" }).toSql()).toThrow(/Person\.toSql\(\): .*use await toArray\(\) instead/);
    // The encryption it started fails with no one awaiting it: vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(Person.findBy({ email: "x@example.com" })).rejects.toThrow(EncryptionError);
  });

  it("refuses conditions no ciphertext can answer: a non-deterministic attribute, a comparison, an order", async () => {
    await expect(Person.findBy({ note: "x" })).rejects.toThrow(new TypeError(
      "Person.note is encrypted with a random IV: no condition can match its ciphertext; declare it encrypts(..., { deterministic: true }) to query it",
    ));
    await expect(Person.where({ note: ["x"] }).count()).rejects.toThrow(/Person\.note is encrypted with a random IV/);
    await expect(Person.where({ email: gt("a") }).toArray()).rejects.toThrow(/Person\.email is encrypted: a comparison/);
    await expect(Person.order({ email: "asc" }).toArray()).rejects.toThrow(/Person\.order: email is encrypted/);
    expect(await Person.where({ note: null }).count()).toBe(0);
  });

  it("refuses a minimum or maximum of an encrypted attribute, which would read ciphertext, before sending anything", async () => {
    await Person.create({ name: "Zed", email: "zed@example.com", age: 30 });
    const refusal = new TypeError("Person: email is encrypted: a sum, average, minimum or maximum of it would read ciphertext");
    const { sent } = await observed(async () => {
      await expect(Person.maximum("email")).rejects.toThrow(refusal);
      await expect(Person.where({ age: 30 }).limit(5).minimum("note")).rejects.toThrow(/^Person: note is encrypted/);
    });
    expect(sent).toEqual([]);
    expect(await Person.maximum("name")).toBe("Zed");
    expect(await Person.sum("age")).toBe(30);
  });

  it("refuses a missing or malformed key with EncryptionError, and a value no key decrypts with DecryptionError, naming the Model and attribute", async () => {
    const person = await Person.createOrThrow({ name: "a", email: "a@example.com", note: "n" });
    keys.current = undefined;
    const missing = await rejectionOf(Person.create({ name: "b", note: "x" }));
    expect(missing).toBeInstanceOf(EncryptionError);
    expect(missing.message).toMatch(/^Person\.note: no encryption key/);
    // A previous key is not made anew: the message says to give the one that wrote older rows, or to drop it.
    keys.current = KEY_A;
    keys.previous = [undefined];
    expect((await rejectionOf(Person.create({ name: "b", note: "x" }))).message).toBe(
      "Person.note: no encryption key: previousKeys[0] is not set (give it the key that wrote older rows, or take it out of previousKeys)",
    );
    keys.previous = [];
    keys.current = "c2hvcnQ=";
    expect((await rejectionOf(Person.find(person.id))).message).toMatch(/^Person\.(email|note): the encryption key in the key function's key is not 32 bytes/);

    keys.current = KEY_B;
    const wrongKey = await rejectionOf(Person.find(person.id));
    expect(wrongKey).toBeInstanceOf(DecryptionError);
    expect(wrongKey.message).toMatch(/^Person\.(email|note): the value was encrypted with key [0-9a-f]{8}, which is neither the key nor one of previousKeys$/);

    keys.current = KEY_A;
    const [row] = await storedRows();
    // The ciphertext's first character: every bit of it is data (the last character of base64 may carry unused bits).
    const altered = String(row!["note"]).replace(/\.([^.])([^.]*)$/, (_, first: string, rest: string) => `.${first === "A" ? "B" : "A"}${rest}`);
    await env.DB.prepare("UPDATE encrypted_people SET note = ? WHERE id = ?").bind(altered, person.id).run();
    const tampered = await rejectionOf(Person.find(person.id));
    expect(tampered).toBeInstanceOf(DecryptionError);
    expect(tampered.message).toMatch(/^Person\.note: the value does not decrypt with key [0-9a-f]{8}: it was altered/);
    expect(tampered.cause).toBeInstanceOf(DOMException);

    await env.DB.prepare("UPDATE encrypted_people SET note = 'plain' WHERE id = ?").bind(person.id).run();
    expect((await rejectionOf(Person.find(person.id))).message).toBe("Person.note: the stored value is not one encrypts wrote (was it stored before the attribute was encrypted?)");
  });

  it("refuses, at the Model's first use, an attribute it does not have, a non-string one and the primary key", async () => {
    const declared = (name: string) => {
      class Declared extends Encrypted("encrypted_people") {}
      (Declared as unknown as { encrypts(name: string): void }).encrypts(name);
      return Declared;
    };
    await expect(declared("emial").first()).rejects.toThrow(new InvalidModel("Declared.encrypts: emial is not an attribute"));
    await expect(declared("age").first()).rejects.toThrow(new InvalidModel("Declared.encrypts: age is a integer; only string attributes are encrypted"));
    await expect(declared("id").first()).rejects.toThrow(InvalidModel);
    expect(() => encrypts({} as never)).toThrow(TypeError);
    class Undeclared extends Encrypted("encrypted_people") {}
    expect(() => Undeclared.encrypts("email", { deterministic: "yes" } as never)).toThrow(new TypeError("Undeclared.encrypts: the options are { deterministic?: boolean }"));
  });

  it("filters encrypted attributes wherever recordflare shows values", async () => {
    const person = await Person.createOrThrow({ name: "a", email: "a@example.com", note: "n" });
    expect(String(person)).toContain("email: [FILTERED]");
    expect(String(person)).not.toContain("a@example.com");
  });
});

describe("encrypts: an attribute a subclass encrypts (single-table inheritance)", () => {
  const staffSchema = {
    sti_staff: { id: "integer", type: "string", name: { type: "string", null: false }, level: "integer", stiTeamId: "integer" },
  } as const;
  class Staff extends defineApplicationRecord(staffSchema, EncryptedBase)("sti_staff") {
    static {
      this.inheritance(() => ({ SecretAgent }));
    }
  }
  class SecretAgent extends Staff {
    static {
      this.encrypts("name");
    }
  }

  it("is decrypted in its records loaded through the parent", async () => {
    await SecretAgent.createOrThrow({ name: "Bond" });
    const stored = await env.DB.prepare("SELECT name FROM sti_staff").first<{ name: string }>();
    expect(stored!.name).toMatch(/^enc1\./);
    const [agent] = await Staff.all().toArray();
    expect([agent!.constructor.name, agent!.name]).toEqual(["SecretAgent", "Bond"]);
    expect((await Staff.find(agent!.id)).name).toBe("Bond");
  });
});

/** Agents of several kinds in one table (single-table inheritance): the root encrypts nothing, a spy its secret and alias. */
class Agent extends Encrypted("encrypted_agents") {
  static {
    this.inheritance(() => ({ Spy, Courier, Handler, Mole }));
  }
}

/** The one kind of agent that encrypts: its secret deterministically (it is queried), its alias with random IVs. */
class Spy extends Agent {
  static {
    this.encrypts("secret", { deterministic: true });
    this.encrypts("alias");
  }
}

/** A kind of agent that encrypts nothing, beside the spies. */
class Courier extends Agent {}

/** A kind of agent that encrypts nothing itself, above one that does: a mole, two levels below the root. */
class Handler extends Agent {}

/** Encrypts the alias only, deterministically: what its parent and the root read and write of its rows. */
class Mole extends Handler {
  static {
    this.encrypts("alias", { deterministic: true });
  }
}

/** The same table through one Model that encrypts both attributes itself. */
class SelfEncryptedAgent extends Encrypted("encrypted_agents") {
  static {
    this.encrypts("secret", { deterministic: true });
    this.encrypts("alias");
  }
}

/** A team of agents: its destroy nullifies every agent's team, spies' too; it preloads agents of every kind. */
class AgentTeam extends Encrypted("encrypted_agent_teams") {
  agents = hasMany(Agent, { foreignKey: "teamId", dependent: "nullify" });
  spies = hasMany(Spy, { foreignKey: "teamId" });
}

async function agentRows(): Promise<Record<string, unknown>[]> {
  return (await env.DB.prepare("SELECT * FROM encrypted_agents ORDER BY id").all<Record<string, unknown>>()).results;
}

/**
 * Where the encrypted attributes are declared: the Model written through (`writer`), the Model whose records hold
 * them encrypted (`reader`), and what a row of that Model gives to be one (`typed`, its type).
 */
interface Declaration {
  readonly writer: typeof SelfEncryptedAgent;
  readonly reader: typeof SelfEncryptedAgent;
  readonly typed: { readonly type?: string };
}

const declarations: Array<[string, Declaration]> = [
  ["declared on the Model itself", { writer: SelfEncryptedAgent, reader: SelfEncryptedAgent, typed: {} }],
  ["declared only on an STI subclass", { writer: Agent as unknown as typeof SelfEncryptedAgent, reader: Spy as unknown as typeof SelfEncryptedAgent, typed: { type: "Spy" } }],
];

/**
 * What a write must do: store `secret` encrypted where the reader finds it (`stored`), only compare it (`compared`),
 * or be refused before anything is sent, with an error matching the pattern (which names the Model, the attribute,
 * and for a subclass's attribute the subclass).
 */
type Outcome = "stored" | "compared" | RegExp;

/** Each write API, with its outcome for an attribute declared on the Model itself and for one only a subclass declares. */
const agentWrites: Array<[string, (d: Declaration, secret: string) => Promise<unknown>, own: Outcome, subclass: Outcome]> = [
  ["create", (d, secret) => d.writer.createOrThrow({ ...d.typed, name: "a", secret, alias: secret }), "stored", "stored"],
  ["build and save", (d, secret) => d.writer.build({ ...d.typed, name: "a", secret, alias: secret }).saveOrThrow(), "stored", "stored"],
  ["batch of toSave", (d, secret) => batch([d.writer.build({ ...d.typed, name: "a", secret, alias: secret }).toSave()]), "stored", "stored"],
  ["save of a loaded record", async (d, secret) => {
    await d.writer.insert({ ...d.typed, name: "a" });
    const agent = await d.writer.findByOrThrow({ name: "a" });
    agent.secret = secret;
    agent.alias = secret;
    await agent.saveOrThrow();
  }, "stored", "stored"],
  ["update of a loaded record, in a batch", async (d, secret) => {
    await d.writer.insert({ ...d.typed, name: "a" });
    const agent = await d.writer.findByOrThrow({ name: "a" });
    await batch([agent.assign({ secret, alias: secret }).toSave()]);
  }, "stored", "stored"],
  ["updateOrThrow", async (d, secret) => {
    await d.writer.insert({ ...d.typed, name: "a" });
    await (await d.writer.findByOrThrow({ name: "a" })).updateOrThrow({ secret, alias: secret });
  }, "stored", "stored"],
  ["insert", (d, secret) => d.writer.insert({ ...d.typed, name: "a", secret, alias: secret }), "stored", "stored"],
  ["insertAll", (d, secret) => d.writer.insertAll([{ ...d.typed, name: "a", secret, alias: secret }, { ...d.typed, name: "b", secret: `${secret}-2`, alias: null }]), "stored", "stored"],
  ["upsert, inserting then updating", async (d, secret) => {
    await d.writer.upsert({ ...d.typed, name: "a", secret, alias: secret }, { uniqueBy: ["secret"] });
    await d.writer.upsert({ ...d.typed, name: "b", secret, alias: `${secret}-2` }, { uniqueBy: ["secret"] });
  }, "stored", "stored"],
  ["upsertAll", (d, secret) => d.writer.upsertAll([{ ...d.typed, name: "a", secret, alias: secret }], { uniqueBy: ["secret"] }), "stored", "stored"],
  ["updateAll of the encrypting Model", async (d, secret) => {
    await d.writer.insert({ ...d.typed, name: "a" });
    await d.reader.where({ name: "a" }).updateAll({ secret, alias: secret });
  }, "stored", "stored"],
  ["updateAll giving the rows the encrypting type, setting every encrypted attribute", async (d, secret) => {
    await d.writer.insert({ name: "a" });
    await d.writer.where({ name: "a" }).updateAll({ ...d.typed, secret, alias: null });
  }, "stored", "stored"],
  ["updateAll and deleteAll by an encrypted condition", async (d, secret) => {
    await d.reader.where({ secret }).updateAll({ name: "b" });
    await d.reader.where({ secret: [secret, "other"] }).deleteAll();
  }, "compared", "compared"],
  // The writes below reach rows of every kind from the root, or need the async stage.
  ["updateAll through the writer", async (d, secret) => {
    await d.writer.insert({ name: "a" });
    await d.writer.where({ name: "a" }).updateAll({ secret });
  },
    "stored", /^Agent\.updateAll: secret is encrypted by Agent's subclass Spy, whose rows this write may change too, .*through Spy \(await Spy\.updateAll\(\.\.\.\)\)/],
  ["updateAll giving the rows the encrypting type, leaving an encrypted attribute", async (d, secret) => {
    await d.writer.insert({ name: "a" });
    await d.writer.where({ name: "a" }).updateAll({ ...d.typed, secret });
  },
    "stored", /^Agent\.updateAll: the type it writes makes rows Spy's, which encrypts alias, and the rows would keep theirs unencrypted; set alias in the same write/],
  ["upsert of rows of the writer's own class", (d, secret) => d.writer.upsert({ name: "a", secret }, { uniqueBy: ["secret"] }),
    "stored", /^Agent\.upsert: secret is encrypted by Agent's subclass Spy, whose rows this write may change too/],
  ["upsert of the encrypting type leaving an encrypted attribute", (d, secret) => d.writer.upsertAll([{ ...d.typed, name: "a", secret }], { uniqueBy: ["secret"] }),
    "stored", /^Agent\.upsertAll: the type it writes makes rows Spy's, which encrypts alias/],
  ["toUpdateAll in a batch", async (d, secret) => batch([d.writer.where({ name: "a" }).toUpdateAll({ secret })]),
    /^SelfEncryptedAgent\.toUpdateAll: secret is encrypted, which needs the async write stage/, /^Agent\.toUpdateAll: secret is encrypted by Agent's subclass Spy/],
  ["toInsert in a batch", async (d, secret) => batch([d.writer.toInsert({ ...d.typed, name: "a", secret })]),
    /^SelfEncryptedAgent\.toInsert: secret is encrypted, which needs the async write stage; use await SelfEncryptedAgent\.insert/, /^Agent\.toInsert: secret is encrypted, which needs the async write stage; use await Agent\.insert/],
  ["toInsertAll in a batch", async (d, secret) => batch([d.writer.toInsertAll([{ ...d.typed, name: "a", secret }])]),
    /^SelfEncryptedAgent\.toInsertAll: secret is encrypted/, /^Agent\.toInsertAll: secret is encrypted/],
  ["toUpsert in a batch", async (d, secret) => batch([d.writer.toUpsert({ ...d.typed, name: "a", secret, alias: null }, { uniqueBy: ["secret"] })]),
    /^SelfEncryptedAgent\.toUpsert: secret is encrypted/, /^Agent\.toUpsert: secret is encrypted/],
  ["toUpsertAll in a batch", async (d, secret) => batch([d.writer.toUpsertAll([{ ...d.typed, name: "a", secret, alias: null }], { uniqueBy: ["secret"] })]),
    /^SelfEncryptedAgent\.toUpsertAll: secret is encrypted/, /^Agent\.toUpsertAll: secret is encrypted/],
  ["updateCounters on an encrypted attribute", (d) => d.writer.updateCounters(1, { secret: 1 } as never),
    /^SelfEncryptedAgent\.updateCounters: SelfEncryptedAgent\.secret is a string attribute/, /^Agent\.updateCounters: Agent\.secret is a string attribute/],
];

describe("encrypts: every write API, with the attribute on the Model and only on an STI subclass", () => {
  for (const [declared, declaration] of declarations) {
    for (const [name, write, own, subclass] of agentWrites) {
      const outcome = declaration.reader === declaration.writer ? own : subclass;
      const expected = outcome instanceof RegExp ? "is refused before anything is sent" : outcome === "stored" ? "stores it encrypted" : "compares ciphertext";
      it(`${declared}: ${name} ${expected}, and no plaintext reaches D1 or a query event`, async () => {
        const secret = `secret-${name.replace(/\W/g, "-")}`;
        let error: unknown;
        const seen = await observed(() => write(declaration, secret).catch((caught: unknown) => void (error = caught)));
        for (const value of seen.sent) expect(String(value)).not.toContain(secret);
        expect(JSON.stringify(seen.events)).not.toContain(secret);
        const stored = await agentRows();
        expect(JSON.stringify(stored)).not.toContain(secret);
        if (outcome instanceof RegExp) {
          expect(error).toBeInstanceOf(Error);
          expect((error as Error).message).toMatch(outcome);
          // Only the reads and writes before the refused one were sent.
          expect(seen.sent.filter((value) => /^(INSERT|UPDATE|DELETE)\b/.test(String(value)) && !/^INSERT INTO "encrypted_agents" \("(type|name)"/.test(String(value)))).toEqual([]);
          return;
        }
        expect(error).toBeUndefined();
        if (outcome === "compared") return;
        for (const row of stored) for (const column of ["secret", "alias"]) if (row[column] !== null) expect(row[column]).toMatch(/^enc1\.[0-9a-f]{8}\./);
        const found = await declaration.reader.findByOrThrow({ secret });
        expect(found.secret).toBe(secret);
        expect(await declaration.writer.where({ id: found.id }).pluck("secret")).toEqual([secret]);
      });
    }
  }
});

describe("encrypts: an attribute only an STI subclass encrypts, read through the root", () => {
  const SECRET = "licence-to-kill";
  let team: AgentTeam;
  let spy: Spy;
  let plain: Agent;

  beforeEach(async () => {
    team = await AgentTeam.createOrThrow({ name: "Q branch" });
    spy = await Spy.createOrThrow({ name: "Bond", secret: SECRET, alias: "007", teamId: team.id });
    plain = await Agent.createOrThrow({ name: "Moneypenny", secret: "shown", alias: "plain alias", teamId: team.id });
    await Courier.createOrThrow({ name: "Tanner", teamId: team.id });
  });

  /** Each load API through the root (or the subclass, or another Model's preload), and the plaintext it must give. */
  const loads: Array<[string, () => Promise<unknown>, unknown]> = [
    ["find", async () => (await Agent.find(spy.id)).alias, "007"],
    ["toArray", async () => (await Agent.order({ name: "asc" }).toArray()).map((agent) => [agent.constructor.name, agent.secret]), [["Spy", SECRET], ["Agent", "shown"], ["Courier", null]]],
    ["findBy and first", async () => [(await Agent.findBy({ name: "Bond" }))?.secret, (await Agent.order({ id: "asc" }).first())?.alias], [SECRET, "007"]],
    ["pluck", () => Agent.order({ name: "asc" }).pluck("secret", "alias"), [[SECRET, "007"], ["shown", "plain alias"], [null, null]]],
    ["select without the type", async () => (await Agent.select("id", "secret").order({ id: "asc" }).toArray()).map((agent) => agent.secret), [SECRET, "shown", null]],
    ["a page", async () => (await Agent.order({ name: "asc" }).paginate({ page: 1 })).records.map((agent) => agent.alias), ["007", "plain alias", null]],
    ["a batch's select", async () => ((await batch([Agent.order({ name: "asc" }).toSelect()]))[0] as Agent[]).map((agent) => agent.secret), [SECRET, "shown", null]],
    ["reload", async () => {
      const loaded = await Agent.find(spy.id);
      await loaded.reload();
      return [loaded.secret, loaded.alias];
    }, [SECRET, "007"]],
    ["the subclass's pluck and findBy", async () => [await Spy.pluck("secret"), (await Spy.findBy({ secret: SECRET }))?.name], [[SECRET], "Bond"]],
    ["includes of agents of every kind, and of spies", async () => {
      const [loaded] = await AgentTeam.includes("agents", "spies").toArray();
      const agents = await loaded!.agents().toArray();
      return [agents.map((agent) => agent.secret).sort(), (await loaded!.spies().toArray()).map((one) => one.alias)];
    }, [[SECRET, "shown", null].sort(), ["007"]]],
  ];

  for (const [name, load, expected] of loads) {
    it(`${name} gives plaintext, and sends none`, async () => {
      let result: unknown;
      const { sent, events, roundTrips } = await observed(async () => void (result = await load()));
      expect(result).toEqual(expected);
      for (const value of sent) expect(String(value)).not.toContain(SECRET);
      expect(JSON.stringify(events)).not.toContain(SECRET);
      if (name.startsWith("includes")) expect(roundTrips).toHaveLength(1);
    });
  }

  it("refuses a condition or an order on it from the root, naming the Model, the attribute and the subclass, before sending anything", async () => {
    const refusal = /^Agent\.secret is encrypted by Agent's subclass Spy, not by Agent: a condition on it from Agent would send its plaintext and could not match Spy's rows; query them through Spy \(Spy\.where\(\.\.\.\)\)$/;
    const { sent } = await observed(async () => {
      await expect(Agent.findBy({ secret: SECRET })).rejects.toThrow(refusal);
      await expect(Agent.where({ secret: [SECRET, "shown"] }).count()).rejects.toThrow(refusal);
      await expect(Agent.whereNot({ secret: SECRET }).pluck("name")).rejects.toThrow(refusal);
      await expect(Agent.where({ secret: SECRET }).deleteAll()).rejects.toThrow(refusal);
      expect(() => Agent.where({ secret: SECRET }).toSql()).toThrow(refusal);
      await expect(Agent.order({ alias: "asc" }).toArray()).rejects.toThrow(/^Agent\.order: alias is encrypted/);
    });
    expect(sent).toEqual([]);
    // Null is no plaintext: it matches the rows of every kind.
    expect(await Agent.where({ secret: null }).pluck("name")).toEqual(["Tanner"]);
  });

  it("a record of the root given the subclass's type encrypts what it writes and what its row held unencrypted", async () => {
    const agent = await Agent.find(plain.id);
    agent.type = "Spy";
    agent.secret = "now hidden";
    await agent.saveOrThrow();
    const [, row] = await agentRows();
    expect([row!["type"], row!["secret"], row!["alias"]]).toEqual(["Spy", expect.stringMatching(/^enc1\./), expect.stringMatching(/^enc1\./)]);
    const spied = await Spy.find(plain.id);
    expect([spied.secret, spied.alias]).toEqual(["now hidden", "plain alias"]);
  });

  it("a destroy's dependent nullify writes the spies' rows without touching what they encrypt", async () => {
    await (await AgentTeam.find(team.id)).destroyOrThrow();
    expect(await Agent.order({ name: "asc" }).pluck("teamId", "secret")).toEqual([[null, SECRET], [null, "shown"], [null, null]]);
  });

  it("a subclass two levels down is encrypted through its parent and the root alike", async () => {
    const { sent, events } = await observed(async () => {
      await Handler.insertAll([{ type: "Mole", name: "Philby", alias: "Stanley" }]);
      expect([await Handler.pluck("alias"), await Agent.where({ name: "Philby" }).pluck("alias")]).toEqual([["Stanley"], ["Stanley"]]);
      await expect(Handler.where({ alias: "Stanley" }).count()).rejects.toThrow(/^Handler\.alias is encrypted by Handler's subclass Mole, not by Handler/);
      await expect(Handler.updateAll({ alias: "Kim" })).rejects.toThrow(/^Handler\.updateAll: alias is encrypted by Handler's subclass Mole/);
      expect(await Mole.where({ alias: "Stanley" }).count()).toBe(1);
    });
    for (const value of sent) expect(String(value)).not.toMatch(/Stanley|Kim/);
    expect(JSON.stringify(events)).not.toMatch(/Stanley|Kim/);
    expect((await agentRows()).find((row) => row["name"] === "Philby")!["alias"]).toMatch(/^enc1\./);
  });

  it("costs nothing to a Model with no encrypted attribute in its hierarchy: none of the plugin's hooks run for it", () => {
    const hooksOf = (model: { all(): { model: { hooks: { has(name: string): boolean } } } }) =>
      ["write:prepare", "write:plan", "records:load", "relation:prepare", "relation:order"].filter((name) => model.all().model.hooks.has(name));
    expect(hooksOf(AgentTeam)).toEqual([]);
    expect(hooksOf(Courier)).toEqual([]);
    expect(hooksOf(Agent)).toEqual(["write:prepare", "write:plan", "records:load", "relation:prepare", "relation:order"]);
  });
});
