import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, bulkWrites, connect, InvalidModel, Model, singleTableInheritance, sql, SubclassNotFound, withDatabase } from "../../src/index.js";
import { kernelUsers } from "../helpers/kernel-bases.js";
import { rejectionOf, thrown } from "../helpers/errors.js";

/** What `fn` threw, as an Error. */
const thrownBy = async (fn: () => unknown) => (await thrown(fn)) as Error;
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { callbackLog, Engineer, Manager, SeniorEngineer, StaffMember, StiTeam } from "../models/staff-members.js";

const rows = async () => (await env.DB.prepare("SELECT id, type, name FROM sti_staff ORDER BY id").all<Record<string, unknown>>()).results;

/** The message of the SubclassNotFound `fn` throws (synchronously or as a rejection); fails the test on anything else. */
async function refusal(fn: () => unknown): Promise<string> {
  const error = await thrownBy(fn);
  expect(error).toBeInstanceOf(SubclassNotFound);
  return error.message;
}

/** What build says of each type an Engineer may not have: every write says the same. */
const NO_CLASS = `Engineer.type: the type "Janitor" names none of StaffMember's inheritance types`;
const SIBLING = `Engineer.type: the type "Manager" is Manager, which is not Engineer or a subclass of it`;
const ROOT = `Engineer.type: the type null is StaffMember, which is not Engineer or a subclass of it`;

beforeEach(async () => {
  await env.DB.exec("DELETE FROM sti_staff; DELETE FROM sti_teams;");
  callbackLog.length = 0;
});

/** One of each kind: a plain staff member (NULL type), a manager, an engineer and a senior engineer. */
async function oneOfEach() {
  const plain = await StaffMember.createOrThrow({ name: "Pat" });
  const manager = await Manager.createOrThrow({ name: "Mo" });
  const engineer = await Engineer.createOrThrow({ name: "Eve", level: 2 });
  const senior = await SeniorEngineer.createOrThrow({ name: "Sam", level: 4 });
  return { plain, manager, engineer, senior };
}

describe("single-table inheritance: writing the type", () => {
  it("a subclass's record is written with its type, the declaring Model's with NULL", async () => {
    await oneOfEach();
    expect((await rows()).map((row) => [row["type"], row["name"]])).toEqual([
      [null, "Pat"],
      ["Manager", "Mo"],
      ["Engineer", "Eve"],
      ["SeniorEngineer", "Sam"],
    ]);
    expect(Manager.build().type).toBe("Manager");
    expect(StaffMember.build().type).toBeNull();
  });

  it("build of a subclass refuses what is no plain object of attributes as the declaring Model's build does", () => {
    for (const given of [null, 5, "Manager", [{ type: "Manager" }]]) {
      expect(() => Engineer.build(given as never)).toThrow(TypeError);
      expect(() => Engineer.build(given as never)).toThrow(/^Engineer\.build takes a plain object of attribute values/);
      expect(() => StaffMember.build(given as never)).toThrow(/^StaffMember\.build takes a plain object of attribute values/);
    }
  });

  it("building the declaring Model with a type makes a record of that class (Rails' new(type:)); bulk inserts write it too", async () => {
    const built = StaffMember.build({ name: "Ann", type: "Manager" });
    expect(built).toBeInstanceOf(Manager);
    const created = await StaffMember.createOrThrow({ name: "Ed", type: "SeniorEngineer", level: 3 });
    expect(created).toBeInstanceOf(SeniorEngineer);
    expect(callbackLog).toEqual(["Engineer Ed"]);
    await Engineer.insertAll([{ name: "Ivy", level: 1 }]);
    expect((await rows()).map((row) => row["type"])).toEqual(["SeniorEngineer", "Engineer"]);
    const bound = connect(env.DB).model(StaffMember).build({ name: "Bo", type: "Manager" });
    expect(bound).toBeInstanceOf(Manager);
    expect(StaffMember.where({ name: "Cy" }).build({ type: "Manager" })).toBeInstanceOf(Manager);
  });

  it("a type that names no class, or a class outside the one built, is refused naming the Model, the attribute and the value", async () => {
    const unknown = await thrownBy(() => StaffMember.build({ name: "X", type: "Janitor" }));
    expect(unknown).toBeInstanceOf(SubclassNotFound);
    expect(unknown.message).toBe(`StaffMember.type: the type "Janitor" names none of StaffMember's inheritance types`);
    const outside = await thrownBy(() => Engineer.build({ name: "X", type: "Manager" }));
    expect(outside).toBeInstanceOf(SubclassNotFound);
    expect(outside.message).toBe(`Engineer.type: the type "Manager" is Manager, which is not Engineer or a subclass of it`);
    expect(await rows()).toEqual([]);
  });
});

describe("single-table inheritance: every write refuses a type outside its Model, before anything is written", () => {
  /** Runs each write of a type outside Engineer and expects build's refusal, with the rows as they were. */
  async function expectEachRefused(write: (type: string | null) => unknown) {
    const before = await rows();
    for (const [type, message] of [["Janitor", NO_CLASS], ["Manager", SIBLING], [null, ROOT]] as const) {
      expect(await refusal(() => write(type))).toBe(message);
    }
    expect(await rows()).toEqual(before);
  }

  it("a record's save, however the type was assigned", async () => {
    const { engineer } = await oneOfEach();
    await expectEachRefused(async (type) => {
      engineer.type = type;
      await engineer.save();
    });
    await expectEachRefused((type) => engineer.update({ type }));
    await expectEachRefused((type) => engineer.assign({ type }).saveOrThrow());
    await expectEachRefused(async (type) => {
      engineer.writeAttribute("type", type);
      await engineer.save();
    });
    expect((await StaffMember.order({ id: "asc" }).toArray()).map((record) => record.constructor)).toEqual([StaffMember, Manager, Engineer, SeniorEngineer]);
  });

  it("a new record's save, and a child saved with its parent, write nothing", async () => {
    await expectEachRefused(async (type) => {
      const engineer = Engineer.build({ name: "Ed", level: 1 });
      engineer.type = type;
      await engineer.save();
    });
    const team = await StiTeam.createOrThrow({ name: "Core" });
    await expectEachRefused(async (type) => {
      const loaded = await StiTeam.find(team.id);
      loaded.name = "Renamed";
      loaded.engineers().build({ name: "Ed", level: 1 }).type = type;
      await loaded.save();
    });
    await expectEachRefused((type) => team.engineers().create({ name: "Ed", level: 1, type }));
    await expectEachRefused(async (type) => {
      const engineer = Engineer.build({ name: "Ed", level: 1 });
      engineer.type = type;
      await batch([StiTeam.build({ name: "Other" }).toSave(), engineer.toSave()]);
    });
    expect(await StiTeam.pluck("name")).toEqual(["Core"]);
  });

  it("bulk inserts and upserts, their sync forms included", async () => {
    const { engineer } = await oneOfEach();
    await expectEachRefused((type) => Engineer.insertAll([{ name: "Ed", level: 1 }, { name: "Ivy", level: 1, type }]));
    await expectEachRefused((type) => Engineer.insert({ name: "Ed", level: 1, type }));
    await expectEachRefused((type) => Engineer.upsert({ id: engineer.id, name: "Eve", level: 2, type }));
    await expectEachRefused((type) => Engineer.upsertAll([{ id: engineer.id, name: "Eve", level: 2, type }]));
    await expectEachRefused((type) => Engineer.toInsertAll([{ name: "Ed", level: 1, type }]));
    await expectEachRefused((type) => Engineer.toUpsert({ id: engineer.id, name: "Eve", level: 2, type }));
  });

  it("updateAll and toUpdateAll, through a Relation or an association too; an sql fragment for the type is refused", async () => {
    const team = await StiTeam.createOrThrow({ name: "Core" });
    await Engineer.createOrThrow({ name: "Eve", level: 2, stiTeamId: team.id });
    await expectEachRefused((type) => Engineer.updateAll({ type }));
    await expectEachRefused((type) => Engineer.where({ name: "Eve" }).updateAll({ level: 3, type }));
    await expectEachRefused((type) => team.engineers().updateAll({ type }));
    await expectEachRefused((type) => Engineer.toUpdateAll({ type }));
    await expectEachRefused((type) => connect(env.DB).model(Engineer).updateAll({ type }));
    expect(await refusal(() => Engineer.updateAll({ type: sql`'Engineer'` }))).toBe(`Engineer.type: the type is an sql fragment, which cannot be checked to name Engineer or a subclass of it; give the type's value`);
    expect(await refusal(() => StaffMember.toUpdateAll({ type: sql`'Engineer'` }))).toMatch(/^StaffMember\.type: the type is an sql fragment/);
    // updateAll reports the refusal as a rejection, as it reports bad input.
    expect((await rejectionOf(StaffMember.updateAll({ type: "Janitor" }))).message).toBe(`StaffMember.type: the type "Janitor" names none of StaffMember's inheritance types`);
    expect((await rows()).map((row) => row["type"])).toEqual(["Engineer"]);
  });

  it("a type of the Model or below it is written: a record may move down its class, the declaring Model's updateAll anywhere", async () => {
    const { plain, engineer } = await oneOfEach();
    engineer.type = "SeniorEngineer";
    expect(await engineer.save()).toBe(true);
    expect(await plain.update({ type: "Manager" })).toBe(true);
    expect(await StaffMember.where({ name: "Mo" }).updateAll({ type: "Engineer", level: 1 })).toBe(1);
    expect(await SeniorEngineer.where({ name: "Sam" }).updateAll({ type: "SeniorEngineer" })).toBe(1);
    expect(await StaffMember.where({ name: "Sam" }).updateAll({ type: null })).toBe(1);
    const all = await StaffMember.order({ id: "asc" }).toArray();
    expect(all.map((record) => [record.name, record.constructor])).toEqual([["Pat", Manager], ["Mo", Engineer], ["Eve", SeniorEngineer], ["Sam", StaffMember]]);
  });
});

describe("single-table inheritance: reading", () => {
  it("a query of the declaring Model makes each row a record of the class its type names", async () => {
    await oneOfEach();
    const all = await StaffMember.order({ id: "asc" }).toArray();
    expect(all.map((record) => record.constructor)).toEqual([StaffMember, Manager, Engineer, SeniorEngineer]);
    expect(await StaffMember.find(all[3]!.id)).toBeInstanceOf(SeniorEngineer);
    expect(await StaffMember.findBy({ name: "Mo" })).toBeInstanceOf(Manager);
  });

  it("a query of a subclass reads only its rows and its subclasses', on every path, with the types bound as one value", async () => {
    const { manager, senior } = await oneOfEach();
    const { events, Engineer: Engineers } = listen({ models: { Engineer } });
    expect((await Engineers.order({ id: "asc" }).toArray()).map((record) => record.name)).toEqual(["Eve", "Sam"]);
    expect(events[0]!.sql).toBe(`SELECT * FROM "sti_staff" WHERE "type" IN (SELECT value FROM json_each(?1)) ORDER BY "id" ASC`);
    expect(events[0]!.params).toEqual([`["Engineer","SeniorEngineer"]`]);
    expect(await Engineer.count()).toBe(2);
    expect(await connect(env.DB).model(Engineer).count()).toBe(2);
    expect(await connect(env.DB).model(StaffMember).where({ name: "Sam" }).first()).toBeInstanceOf(SeniorEngineer);
    expect(await SeniorEngineer.pluck("name")).toEqual(["Sam"]);
    expect(await Engineer.findBy({ name: "Mo" })).toBeNull();
    expect(await Engineer.exists({ id: manager.id })).toBe(false);
    await expect(Engineer.find(manager.id)).rejects.toThrow(`Engineer: no record with id ${manager.id}`);
    expect(await Engineer.find(senior.id)).toBeInstanceOf(SeniorEngineer);
    expect((await Engineer.seniors().toArray()).map((record) => record.name)).toEqual(["Sam"]);
    expect(await Manager.named("Mo").count()).toBe(1);
    expect((await Engineer.paginate({ page: 1 })).total).toBe(2);
  });

  it("updateAll and deleteAll of a subclass reach only its rows", async () => {
    await oneOfEach();
    expect(await Engineer.updateAll({ level: 9 })).toBe(2);
    expect(await Manager.deleteAll()).toBe(1);
    const left = await StaffMember.order({ id: "asc" }).toArray();
    expect(left.map((record) => [record.name, record.level])).toEqual([["Pat", null], ["Eve", 9], ["Sam", 9]]);
  });

  it("an upsert of a subclass updates only a row of its own type: another type's row of the key is left as it is", async () => {
    const { plain, manager, engineer, senior } = await oneOfEach();
    const before = await rows();
    expect((await Engineer.upsertAll([{ id: manager.id, name: "Hijacked", level: 1 }, { id: engineer.id, name: "Eva", level: 3 }])).changes).toBe(1);
    await Engineer.upsert({ id: plain.id, name: "Hijacked", level: 1 });
    await Engineer.upsert({ id: senior.id, name: "Hijacked", level: 1 });
    await batch([Manager.toUpsert({ id: engineer.id, name: "Hijacked" })]);
    const after = await rows();
    expect(after).toEqual(before.map((row) => (row["id"] === engineer.id ? { ...row, name: "Eva" } : row)));
    expect(await StaffMember.pluck("level")).toEqual([null, null, 3, 4]);
    const { events, Engineer: Engineers } = listen({ models: { Engineer } });
    await Engineers.upsert({ id: engineer.id, name: "Eve", level: 2 });
    expect(events[0]!.sql).toMatch(/ DO UPDATE SET "name" = excluded\."name", "level" = excluded\."level" WHERE "sti_staff"\."type" IS excluded\."type"$/);
    // The declaring Model reads every row: its upsert updates any of them, as its updateAll does.
    await StaffMember.upsert({ id: manager.id, name: "Moe" });
    expect((await Manager.find(manager.id)).name).toBe("Moe");
  });

  it("associations read through a subclass's narrowing, preloads included, in one round trip", async () => {
    const team = await StiTeam.createOrThrow({ name: "Core" });
    await Engineer.createOrThrow({ name: "Eve", level: 2, stiTeamId: team.id });
    await Manager.createOrThrow({ name: "Mo", stiTeamId: team.id });
    await SeniorEngineer.createOrThrow({ name: "Sam", level: 4, stiTeamId: team.id });
    expect((await team.engineers().order({ id: "asc" }).toArray()).map((record) => record.name)).toEqual(["Eve", "Sam"]);
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const loaded = await StiTeam.includes("engineers", "staff").find(team.id);
      const engineers = await loaded.engineers().toArray();
      const staff = await loaded.staff().toArray();
      expect(engineers.map((record) => record.constructor)).toEqual([Engineer, SeniorEngineer]);
      expect(staff.map((record) => record.constructor.name).sort()).toEqual(["Engineer", "Manager", "SeniorEngineer"]);
    });
    expect(roundTrips).toHaveLength(1);
  });

  it("a dependent destroy through a subclass's association destroys only its rows, in one round trip", async () => {
    const [core, other] = [await StiTeam.createOrThrow({ name: "Core" }), await StiTeam.createOrThrow({ name: "Other" })];
    await Engineer.createOrThrow({ name: "Eve", level: 2, stiTeamId: core.id });
    await SeniorEngineer.createOrThrow({ name: "Sam", level: 4, stiTeamId: core.id });
    await Engineer.createOrThrow({ name: "Ivy", level: 1, stiTeamId: other.id });
    await Manager.createOrThrow({ name: "Mo", stiTeamId: core.id });
    await Manager.where({ name: "Mo" }).updateAll({ stiTeamId: null });
    const { binding, roundTrips } = recordingRoundTrips();
    await withDatabase(connect(binding), async () => {
      const loaded = await StiTeam.find(core.id);
      roundTrips.length = 0;
      await loaded.destroyOrThrow();
    });
    expect(roundTrips).toHaveLength(1);
    expect((await StaffMember.order({ name: "asc" }).toArray()).map((record) => record.name)).toEqual(["Ivy", "Mo"]);
  });

  it("a row whose type names no class is refused naming the Model, the column and the value", async () => {
    await env.DB.prepare(`INSERT INTO sti_staff (type, name) VALUES ('Janitor', 'Jo')`).run();
    const error = await rejectionOf(StaffMember.toArray());
    expect(error).toBeInstanceOf(SubclassNotFound);
    expect(error.message).toBe(`StaffMember.type: the type "Janitor" names none of StaffMember's inheritance types`);
  });

  it("a row read without its type column stays a record of the Model queried", async () => {
    await oneOfEach();
    const names = await StaffMember.select("id", "name").order({ id: "asc" }).toArray();
    expect(names.map((record) => record.constructor)).toEqual([StaffMember, StaffMember, StaffMember, StaffMember]);
  });
});

describe("single-table inheritance: a subclass's declarations reach its rows only", () => {
  it("validations and callbacks of a subclass run for its records, not its parent's or siblings'", async () => {
    expect(await Manager.build({ name: "Mo" }).save()).toBe(true);
    const engineer = Engineer.build({ name: "Eve" });
    expect(await engineer.save()).toBe(false);
    expect(engineer.errors.fullMessages()).toEqual(["Level can't be blank"]);
    const loaded = await StaffMember.createOrThrow({ name: "Sam", type: "SeniorEngineer", level: 4 });
    expect(callbackLog).toEqual(["Engineer Sam"]);
    const reread = (await StaffMember.find(loaded.id)) as SeniorEngineer;
    reread.level = null;
    expect(await reread.save()).toBe(false);
  });

  it("a uniqueness validation looks among the rows of the Model that declared it: the root's, every type; a subclass's, its own", async () => {
    class Member extends Model({ id: "integer", type: "string", name: { type: "string", null: false }, level: "integer" }) {
      static override binding = "DB";
      static override tableName = "sti_staff";
      static {
        this.inheritance(() => ({ Lead, Coder }));
        this.validates("name", { uniqueness: true });
      }
    }
    class Lead extends Member {}
    class Coder extends Member {
      static {
        this.validates("level", { uniqueness: true });
      }
    }
    await Lead.createOrThrow({ name: "Mo", level: 1 });
    const { db, sqls } = listen();
    const rival = db.model(Coder).build({ name: "Mo", level: 1 });
    expect(await rival.save()).toBe(false);
    expect(rival.errors.fullMessages()).toEqual(["Name has already been taken"]);
    expect(sqls()).toEqual([
      `SELECT 1 AS "recordflare_one" FROM "sti_staff" WHERE "name" = ?1 LIMIT 1`,
      `SELECT 1 AS "recordflare_one" FROM "sti_staff" WHERE "level" = ?1 AND "type" IN (SELECT value FROM json_each(?2)) LIMIT 1`,
    ]);
    expect(await Coder.build({ name: "Eve", level: 1 }).save()).toBe(true);
    const second = Coder.build({ name: "Sam", level: 1 });
    expect(await second.save()).toBe(false);
    expect(second.errors.fullMessages()).toEqual(["Level has already been taken"]);
  });
});

describe("single-table inheritance: declaration checks", () => {
  it("a subclass that shares the table but is not listed is refused at its first use", async () => {
    class Intern extends StaffMember {}
    const error = await rejectionOf(Intern.count());
    expect(error).toBeInstanceOf(InvalidModel);
    expect(error.message).toBe(`Intern: it shares StaffMember's table but is not one of its inheritance types; add it to StaffMember.inheritance`);
  });

  it("a column that is not a string attribute, bad types and bad options are refused naming the Model", async () => {
    class Gadget extends Model({ id: "integer", kind: "integer" }) {
      static override tableName = "sti_staff";
      static {
        this.inheritance(() => ({}), { column: "kind" });
      }
    }
    expect((await rejectionOf(Gadget.count())).message).toBe(`Gadget.inheritance: kind is not a string attribute; it stores each row's type`);
    class Widget extends Model({ id: "integer", type: "string" }) {
      static override tableName = "sti_staff";
      static {
        this.inheritance(() => ({ Stranger: StiTeam as never }));
      }
    }
    expect((await rejectionOf(Widget.count())).message).toBe(`Widget.inheritance: type "Stranger" names StiTeam, which is not Widget or a subclass of it`);
    expect(await thrownBy(() => StaffMember.inheritance(() => ({})))).toBeInstanceOf(InvalidModel);
    expect((await thrownBy(() => (Model({ id: "integer" }) as any).inheritance(() => ({}), { colum: "x" }))).message).toMatch(/\.inheritance: "colum" is not an option; the options are column$/);
    expect((await thrownBy(() => (Model({ id: "integer" }) as any).inheritance({}))).message).toMatch(/takes a function returning the types/);
  });

  it("on a base of the kernel, the plugin is registered after bulkWrites, whose updateAll it checks", async () => {
    expect(kernelUsers(bulkWrites, singleTableInheritance)["inheritance"]).toBeTypeOf("function");
    const error = await thrownBy(() => kernelUsers(singleTableInheritance, bulkWrites));
    expect(error).toBeInstanceOf(InvalidModel);
    expect(error.message).toBe(`KernelBase.use: plugin singleTableInheritance wraps the relation method updateAll, which nothing registered before it provides`);
  });
});
