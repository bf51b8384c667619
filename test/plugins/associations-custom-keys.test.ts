/**
 * Associations whose keys are of a plugin's attribute type (a value object, a new one at each load): preloads match
 * children to owners, a destroy hands each dependent to its owner once, and `setIds` finds each target, all by the
 * keys' stored forms. Matched as JavaScript values, equal keys loaded apart never met: preloads left owners without
 * their rows, and a destroy took every child for one row, destroyed only the first, and failed on the others'
 * foreign keys.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { ActiveRecord, belongsTo, defineApplicationRecord, hasMany, hasOne, withDatabase } from "../../src/index.js";
import { type AttributeTypeDefinition, defineAttributeType, definePlugin } from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";

/** A code such as "P1": upper-case letters and digits, held as a value object. */
class Code {
  constructor(readonly text: string) {}
}

const code: AttributeTypeDefinition<Code> = {
  cast: (value) => (value instanceof Code ? value : typeof value === "string" && /^[a-z0-9]+$/i.test(value) ? new Code(value.toUpperCase()) : undefined),
  toDatabase: (value) => value.text,
  fromDatabase: (stored) => new Code(String(stored)),
};

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    code: Code;
  }
  interface AttributeInputMap {
    code: string;
  }
}

const codeType = definePlugin({
  name: "code-type",
  setup() {
    defineAttributeType("code", code);
  },
});

/** The guide's tenancy tables (migration 0024) and the tags of migration 0190: text keys, which the Models read as codes. */
const schema = {
  guide_projects: { id: { type: "string", null: false }, tenantId: { type: "string", null: false }, name: { type: "string", null: false }, createdAt: "datetime", updatedAt: "datetime" },
  guide_tasks: { id: { type: "string", null: false }, tenantId: { type: "string", null: false }, projectId: { type: "string", null: false }, title: { type: "string", null: false }, done: "boolean" },
  coded_tags: { id: { type: "string", null: false }, name: { type: "string", null: false } },
  coded_taggings: { id: "integer", projectId: { type: "string", null: false }, tagId: { type: "string", null: false } },
} as const;

class CodedBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(codeType);
  }
}
const Coded = defineApplicationRecord(schema, CodedBase);

const destroyed: string[] = [];

class Project extends Coded("guide_projects", { id: "code" }) {
  tasks = hasMany(Task, { foreignKey: "projectId", dependent: "destroy" });
  firstTask = hasOne(Task, { foreignKey: "projectId" });
  taggings = hasMany(Tagging, { foreignKey: "projectId" });
  tags = hasMany(Tag, { through: this.taggings, source: "tag" });
  /** Through with a scope: its preload reads which targets each owner's scope admits, by key. */
  alphaTags = hasMany(Tag, { through: this.taggings, source: "tag", scope: (tags) => tags.where({ name: "alpha" }) });
}
class Tag extends Coded("coded_tags", { id: "code" }) {}
class Tagging extends Coded("coded_taggings", { projectId: "code", tagId: "code" }) {
  tag = belongsTo(Tag, { foreignKey: "tagId" });
}
class Task extends Coded("guide_tasks", { id: "code", projectId: "code" }) {
  project = belongsTo(Project, { foreignKey: "projectId" });
  static {
    this.beforeDestroy((task) => {
      destroyed.push(task.id.text);
    });
  }
}

const texts = (records: readonly { id: Code }[]) => records.map((record) => record.id.text).sort();

beforeEach(async () => {
  await resetDatabase();
  await Project.insertAll([
    { id: "p1", tenantId: "t", name: "One" },
    { id: "p2", tenantId: "t", name: "Two" },
  ]);
  await Task.insertAll([
    { id: "t1", tenantId: "t", projectId: "p1", title: "a" },
    { id: "t2", tenantId: "t", projectId: "p1", title: "b" },
    { id: "t3", tenantId: "t", projectId: "p2", title: "c" },
  ]);
  await Tag.insertAll([
    { id: "a", name: "alpha" },
    { id: "b", name: "beta" },
  ]);
  await Tagging.insertAll([
    { projectId: "p1", tagId: "b" },
    { projectId: "p1", tagId: "a" },
    { projectId: "p2", tagId: "b" },
  ]);
  destroyed.length = 0;
});

describe("associations keyed by a plugin type", () => {
  it("includes gives each owner its own rows: hasMany, hasOne and belongsTo, with no query of their own", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const projects = await Project.includes("tasks", "firstTask").order({ name: "asc" }).toArray();
      const tasks = await Task.includes("project").order({ title: "asc" }).toArray();
      const sent = sqls().length;
      expect(await Promise.all(projects.map(async (project) => texts(await project.tasks().toArray())))).toEqual([["T1", "T2"], ["T3"]]);
      expect(projects.map((project) => project.firstTask.get()?.projectId.text)).toEqual(["P1", "P2"]);
      expect(tasks.map((task) => task.project.get()?.name)).toEqual(["One", "One", "Two"]);
      expect(sqls()).toHaveLength(sent);
    });
  });

  it("includes of through associations, with and without a scope, gives each owner its own targets", async () => {
    const { db, sqls } = listen();
    await withDatabase(db, async () => {
      const projects = await Project.includes("tags", "alphaTags").order({ name: "asc" }).toArray();
      const sent = sqls().length;
      expect(await Promise.all(projects.map(async (project) => texts(await project.tags().toArray())))).toEqual([["A", "B"], ["B"]]);
      expect(await Promise.all(projects.map(async (project) => texts(await project.alphaTags().toArray())))).toEqual([["A"], []]);
      expect(sqls()).toHaveLength(sent);
    });
  });

  it("a destroy destroys each dependent once, through its callbacks", async () => {
    const project = await Project.find("p1");
    await project.destroyOrThrow();
    expect(destroyed.sort()).toEqual(["T1", "T2"]);
    expect(texts(await Task.all().toArray())).toEqual(["T3"]);
  });

  it("setIds finds each target by its key", async () => {
    const project = await Project.find("p2");
    await project.tasks().setIds(["t1", "t3"]);
    // @ts-expect-error keys are given as a form sends them, text or a number, which is what setIds reads
    void (() => project.tasks().setIds([new Code("T1")]));
    expect(texts(await project.tasks().toArray())).toEqual(["T1", "T3"]);
    expect((await Task.find("t1")).projectId.text).toBe("P2");
    expect(destroyed).toEqual([]);
  });
});
