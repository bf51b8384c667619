/**
 * Associations whose keys are of a plugin's attribute type (a value object, a new one at each load): preloads match
 * children to owners, a destroy hands each dependent to its owner once, and `setIds` finds each target, all by the
 * keys' stored forms. Matched as JavaScript values, equal keys loaded apart never met: preloads left owners without
 * their rows, and a destroy took every child for one row, destroyed only the first, and failed on the others'
 * foreign keys. Keys stored as bytes are matched by their content, as SQLite compares blobs.
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

/** Keys of bytes, stored as blobs: each record loaded holds its own copy, equal by content only. */
const bytes: AttributeTypeDefinition<Uint8Array> = {
  cast: (value) =>
    value instanceof Uint8Array ? value : value instanceof ArrayBuffer ? new Uint8Array(value) : typeof value === "string" ? new TextEncoder().encode(value) : undefined,
  toDatabase: (value) => value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength),
  fromDatabase: (stored) => new Uint8Array(stored as ArrayBuffer),
};

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    bytes: Uint8Array;
  }
  interface AttributeInputMap {
    bytes: string;
  }
}

class BytesBase extends ActiveRecord {
  static override binding = "DB";
  static {
    this.use(definePlugin({ name: "bytes-type", setup: () => defineAttributeType("bytes", bytes) }));
  }
}
const Bytes = defineApplicationRecord(schema, BytesBase);
const destroyedBytes: string[] = [];
const textOf = (key: Uint8Array) => new TextDecoder().decode(key);

class BytesProject extends Bytes("guide_projects", { id: "bytes" }) {
  tasks = hasMany(BytesTask, { foreignKey: "projectId", dependent: "destroy" });
}
class BytesTask extends Bytes("guide_tasks", { id: "bytes", projectId: "bytes" }) {
  project = belongsTo(BytesProject, { foreignKey: "projectId" });
  static {
    this.beforeDestroy((task) => {
      destroyedBytes.push(textOf(task.id));
    });
  }
}

describe("associations keyed by bytes (a plugin type stored as a blob)", () => {
  beforeEach(async () => {
    await resetDatabase();
    for (const [id, name] of [["p1", "One"], ["p2", "Two"]] as const) await BytesProject.createOrThrow({ id, tenantId: "t", name });
    for (const [id, projectId, title] of [["t1", "p1", "a"], ["t2", "p1", "b"], ["t3", "p2", "c"]] as const) await BytesTask.createOrThrow({ id, tenantId: "t", projectId, title });
    destroyedBytes.length = 0;
  });

  it("includes gives each owner its own rows, matched by the bytes of their keys", async () => {
    const projects = await BytesProject.includes("tasks").order({ name: "asc" }).toArray();
    expect(await Promise.all(projects.map(async (project) => (await project.tasks().toArray()).map((task) => task.title).sort()))).toEqual([["a", "b"], ["c"]]);
    const tasks = await BytesTask.includes("project").order({ title: "asc" }).toArray();
    expect(tasks.map((task) => task.project.get()?.name)).toEqual(["One", "One", "Two"]);
  });

  it("a destroy destroys each dependent once; remove takes a child loaded apart from its owner", async () => {
    await (await BytesProject.find("p1")).destroyOrThrow();
    expect(destroyedBytes.sort()).toEqual(["t1", "t2"]);
    expect((await BytesTask.all().toArray()).map((task) => textOf(task.id))).toEqual(["t3"]);
    const project = await BytesProject.find("p2");
    await project.tasks().remove(await BytesTask.find("t3"));
    expect(await project.tasks().toArray()).toEqual([]);
  });

  it("setIds finds each target by the bytes of its key, and find takes a list of byte keys", async () => {
    const project = await BytesProject.find("p2");
    await project.tasks().setIds(["t1", "t3"]);
    expect((await project.tasks().toArray()).map((task) => textOf(task.id)).sort()).toEqual(["t1", "t3"]);
    expect(destroyedBytes).toEqual([]);
    expect((await BytesTask.find(["t3", "t1"])).map((task) => textOf(task.projectId))).toEqual(["p2", "p2"]);
  });
});
