import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { batch, connect, IncompatibleRelation, InvalidModel, Model, RecordNotFound, withDatabase, withTenant } from "../../src/index.js";
import { rejectionOf } from "../helpers/errors.js";
import { listen, recordingRoundTrips } from "../helpers/queries.js";
import { ArchivableBoard, ArchivableNote, PinnedNote, PurgedBoard, ReleasedBoard, scopeRuns, TenantNote } from "../models/archivable-notes.js";

const rows = async () => (await env.DB.prepare("SELECT id, archivable_board_id AS board, title, archived FROM archivable_notes ORDER BY id").all()).results;
const titles = (notes: readonly { title: string }[]) => notes.map((note) => note.title);

/** Board 1 holds four notes: two kept, two archived (the scope hides those), one of each pinned. */
beforeEach(async () => {
  await env.DB.batch([
    env.DB.prepare("DELETE FROM archivable_notes"),
    env.DB.prepare("DELETE FROM archivable_boards"),
    env.DB.prepare("INSERT INTO archivable_boards (id, name) VALUES (1, 'Board')"),
    env.DB.prepare(
      `INSERT INTO archivable_notes (id, archivable_board_id, title, archived, pinned, tenant_id) VALUES
        (1, 1, 'Kept', 0, 0, 'acme'), (2, 1, 'Archived', 1, 0, 'acme'), (3, 1, 'Pinned', 0, 1, 'acme'), (4, 1, 'Pinned archived', 1, 1, 'globex')`,
    ),
  ]);
  scopeRuns.count = 0;
});

/** Runs `work` on a database whose round trips are recorded. */
async function counting(work: () => Promise<void>): Promise<string[][]> {
  const { binding, roundTrips } = recordingRoundTrips();
  await withDatabase(connect(binding), work);
  return roundTrips;
}

describe("defaultScope: every query of the Model", () => {
  it("finds read through it: find, findBy, first, take, last, findMany, toArray", async () => {
    const { events, ArchivableNote: Notes } = listen({ models: { ArchivableNote } });
    expect(titles(await Notes.all().toArray())).toEqual(["Kept", "Pinned"]);
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE "archived" = ?1`);
    expect(events.at(-1)!.params).toEqual([0]);
    expect((await Notes.find(1)).title).toBe("Kept");
    expect((await rejectionOf(Notes.find(2))).constructor).toBe(RecordNotFound);
    expect(await Notes.findBy({ title: "Archived" })).toBeNull();
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE "title" = ?1 AND "archived" = ?2 LIMIT 1`);
    expect((await Notes.order({ id: "desc" }).first())!.title).toBe("Pinned");
    expect((await Notes.where({ title: "Archived" }).take())).toBeNull();
    expect((await Notes.last())!.title).toBe("Pinned");
    expect(titles(await Notes.find([1, 3]))).toEqual(["Kept", "Pinned"]);
    expect(await rejectionOf(Notes.find([1, 2]))).toBeInstanceOf(RecordNotFound);
  });

  it("counts, exists, pluck and a page with its total read through it", async () => {
    const { events, ArchivableNote: Notes } = listen({ models: { ArchivableNote } });
    expect(await Notes.count()).toBe(2);
    expect(events.at(-1)!.sql).toContain(`WHERE "archived" = ?1`);
    expect(await Notes.where({ pinned: true }).size()).toBe(1);
    expect(await Notes.exists({ title: "Archived" })).toBe(false);
    expect(await Notes.exists()).toBe(true);
    expect(await Notes.order({ id: "asc" }).pluck("title")).toEqual(["Kept", "Pinned"]);
    const page = await Notes.order({ id: "asc" }).paginate({ page: 1, perPage: 1 });
    expect([titles(page.records), page.total, page.totalPages, page.hasNext]).toEqual([["Kept"], 2, 2, true]);
  });

  it("updateAll and deleteAll reach only the rows it shows", async () => {
    expect(await ArchivableNote.updateAll({ title: "Renamed" })).toBe(2);
    expect((await rows()).map((row) => row["title"])).toEqual(["Renamed", "Archived", "Renamed", "Pinned archived"]);
    const { events, ArchivableNote: Notes } = listen({ models: { ArchivableNote } });
    expect(await Notes.where({ pinned: true }).deleteAll()).toBe(1);
    expect(events.at(-1)!.sql).toBe(`DELETE FROM "archivable_notes" WHERE "pinned" = ?1 AND "archived" = ?2`);
    expect((await rows()).map((row) => row["id"])).toEqual([1, 2, 4]);
  });

  it("reload reads through it: a record the scope now hides is not found", async () => {
    const note = await ArchivableNote.find(1);
    await ArchivableNote.unscoped().where({ id: 1 }).updateAll({ archived: true });
    const { events } = listen();
    expect(await rejectionOf(note.reload())).toBeInstanceOf(RecordNotFound);
    const other = await ArchivableNote.find(3);
    await other.reload();
    expect(other.title).toBe("Pinned");
    expect(events).toEqual([]);
  });

  it("several declarations combine with AND, and a subclass adds its own to its parent's", async () => {
    const { events, PinnedNote: Pinned } = listen({ models: { PinnedNote } });
    expect(titles(await Pinned.all().toArray())).toEqual(["Pinned"]);
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE "archived" = ?1 AND "pinned" = ?2`);
    expect(titles(await Pinned.unscoped().order({ id: "asc" }).toArray())).toEqual(["Kept", "Archived", "Pinned", "Pinned archived"]);
    // The parent reads as before: the subclass's declaration is its own.
    expect(await ArchivableNote.count()).toBe(2);
  });

  it("or() and merge() keep it once, outside what they combine", async () => {
    const { events, ArchivableNote: Notes } = listen({ models: { ArchivableNote } });
    const either = Notes.where({ title: "Kept" }).or(Notes.where({ title: "Archived" }));
    expect(titles(await either.toArray())).toEqual(["Kept"]);
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE ("title" = ?1 OR "title" = ?2) AND "archived" = ?3`);
    expect(titles(await Notes.where({ pinned: true }).merge(Notes.where({ title: "Pinned archived" })).toArray())).toEqual([]);
    // merge takes the other's: an unscoped Relation merged in lifts it.
    expect(titles(await Notes.where({ pinned: true }).merge(Notes.unscoped().where({ title: "Pinned archived" })).toArray())).toEqual(["Pinned archived"]);
    // or needs both sides to read through the same default scope, as it needs the same plugin entries.
    expect(() => Notes.where({ id: 1 }).or(Notes.unscoped().where({ id: 2 }))).toThrow(IncompatibleRelation);
  });
});

describe("defaultScope: once in every compile path", () => {
  const SCOPE = `"archived" = `;
  const occurrences = (sql: string) => sql.split(SCOPE).length - 1;

  it("the sync forms compile it once, among the Relation's own conditions", () => {
    const kept = ArchivableNote.where({ pinned: true });
    const compiled: Array<[string, string]> = [
      ["toSql()", kept.toSql().sql],
      ["toSelect()", kept.toSelect().toSql().sql],
      ["toUpdateAll()", kept.toUpdateAll({ title: "t" }).toSql().sql],
      ["toDeleteAll()", kept.toDeleteAll().toSql().sql],
      ["toString()", String(kept)],
      ["a paged toUpdateAll()", kept.order({ id: "asc" }).limit(1).toUpdateAll({ title: "t" }).toSql().sql],
    ];
    for (const [form, sql] of compiled) expect(occurrences(sql), form).toBe(1);
    expect(kept.toSql()).toEqual({ sql: `SELECT * FROM "archivable_notes" WHERE "pinned" = ?1 AND "archived" = ?2`, params: [1, 0] });
    expect(kept.unscoped().toSql().sql).not.toContain(SCOPE);
  });

  it("every async form sends it once per Relation it compiles", async () => {
    const { events, ArchivableNote: Notes, ArchivableBoard: Boards } = listen({ models: { ArchivableNote, ArchivableBoard } });
    const kept = Notes.where({ pinned: true });
    await kept.toArray();
    await kept.count();
    await kept.exists();
    await kept.pluck("title");
    await kept.paginate({ page: 1 });
    await Boards.includes("archivableNotes").toArray();
    await kept.updateAll({ title: "t" });
    await kept.deleteAll();
    const noteQueries = events.filter((event) => event.sql.includes(`"archivable_notes"`));
    expect(noteQueries.length).toBeGreaterThanOrEqual(9);
    for (const event of noteQueries) expect(occurrences(event.sql), event.sql).toBe(1);
  });

  it("a batch of sync forms reads and writes the rows it shows", async () => {
    const [notes, changed] = await batch([ArchivableNote.order({ id: "asc" }).toSelect(), ArchivableNote.where({ pinned: true }).toUpdateAll({ title: "Renamed" })]);
    expect(titles(notes as { title: string }[])).toEqual(["Kept", "Pinned"]);
    expect(changed).toBe(1);
    expect((await rows()).map((row) => row["title"])).toEqual(["Kept", "Archived", "Renamed", "Pinned archived"]);
  });
});

describe("defaultScope: associations", () => {
  it("an association's reads and preloads read through the target's default scope, in one round trip", async () => {
    const board = await ArchivableBoard.find(1);
    expect(titles(await board.archivableNotes().order({ id: "asc" }).toArray())).toEqual(["Kept", "Pinned"]);
    expect(await board.archivableNotes().count()).toBe(2);
    expect(titles(await board.pinnedNotes().toArray())).toEqual(["Pinned"]);
    expect(titles(await board.archivableNotes().unscoped().order({ id: "asc" }).toArray())).toEqual(["Kept", "Archived", "Pinned", "Pinned archived"]);
    const trips = await counting(async () => {
      const [loaded] = await ArchivableBoard.includes("archivableNotes", "pinnedNotes").toArray();
      expect(titles(await loaded!.archivableNotes().toArray())).toEqual(["Kept", "Pinned"]);
      expect(titles(await loaded!.pinnedNotes().toArray())).toEqual(["Pinned"]);
    });
    expect(trips).toHaveLength(1);
    expect(trips[0]!.slice(1).every((sql) => sql.includes(`"archived" = `))).toBe(true);
  });

  it("dependent destroy destroys the notes the scope shows, each through its own destroy; the hidden ones stay", async () => {
    const board = await ArchivableBoard.find(1);
    await board.destroyOrThrow();
    expect(await rows()).toEqual([
      { id: 2, board: 1, title: "Archived", archived: 1 },
      { id: 4, board: 1, title: "Pinned archived", archived: 1 },
    ]);
    await env.DB.prepare("INSERT INTO archivable_boards (id, name) VALUES (2, 'Another')").run();
    await env.DB.prepare("UPDATE archivable_notes SET archivable_board_id = 2").run();
    const another = await ArchivableBoard.find(2);
    await ArchivableNote.unscoped(() => another.destroyOrThrow());
    expect(await rows()).toEqual([]);
  });

  it("dependent deleteAll and nullify reach the notes the scope shows, with one set-based write", async () => {
    const { events, ReleasedBoard: Released } = listen({ models: { ReleasedBoard } });
    await (await Released.find(1)).destroyOrThrow();
    expect(events.find((event) => event.sql.startsWith("UPDATE"))!.sql).toContain(`"archived" = `);
    expect((await rows()).map((row) => row["board"])).toEqual([null, 1, null, 1]);
    await env.DB.prepare("INSERT INTO archivable_boards (id, name) VALUES (1, 'Board')").run();
    await env.DB.prepare("UPDATE archivable_notes SET archivable_board_id = 1").run();
    await (await PurgedBoard.find(1)).destroyOrThrow();
    expect((await rows()).map((row) => row["title"])).toEqual(["Archived", "Pinned archived"]);
  });
});

describe("defaultScope: new records", () => {
  it("build, create and an association's build start with its equality conditions; given attributes win", async () => {
    expect(ArchivableNote.build().archived).toBe(false);
    expect(ArchivableNote.build({ archived: true }).archived).toBe(true);
    const created = await ArchivableNote.createOrThrow({ title: "New" });
    expect([created.archived, (await ArchivableNote.find(created.id)).title]).toEqual([false, "New"]);
    const pinned = PinnedNote.build();
    expect([pinned.archived, pinned.pinned]).toEqual([false, true]);
    expect(ArchivableNote.where({ archived: true }).build().archived).toBe(true);
    const board = await ArchivableBoard.find(1);
    expect(board.archivableNotes().build({ title: "Child" }).archived).toBe(false);
  });

  it("unscoped() builds and creates without it, as Model.unscoped(fn) does", async () => {
    expect(ArchivableNote.unscoped().build().archived).toBeNull();
    expect(ArchivableNote.unscoped(() => ArchivableNote.build()).archived).toBeNull();
    expect(PinnedNote.unscoped().build().pinned).toBe(false);
    expect(PinnedNote.unscoped().where({ title: "Narrowed" }).build().pinned).toBe(false);
    // pinned's own default (false) stays; the scope's true would win over it.
    expect((await PinnedNote.unscoped().create({ title: "Created" })).pinned).toBe(false);
    expect((await PinnedNote.unscoped().createOrThrow({ title: "Thrown" })).pinned).toBe(false);
    expect((await PinnedNote.unscoped().findOrInitializeBy({ title: "Initialized" })).pinned).toBe(false);
    expect((await PinnedNote.unscoped().findOrCreateBy({ title: "Found or created" })).pinned).toBe(false);
    expect((await rows()).slice(4).map((row) => row["title"])).toEqual(["Created", "Thrown", "Found or created"]);
    expect((await env.DB.prepare("SELECT COUNT(*) AS n FROM archivable_notes WHERE pinned = 1").first())!["n"]).toBe(2);
  });

  it("an association's unscoped() builds and creates without it: build, create, createOrThrow, findOrCreateBy", async () => {
    const board = await ArchivableBoard.find(1);
    const built = board.pinnedNotes().unscoped().build({ title: "Built" });
    expect([built.pinned, built.archived, built.archivableBoardId]).toEqual([false, null, 1]);
    expect(board.pinnedNotes().unscoped().where({ title: "Narrowed" }).build().pinned).toBe(false);
    expect(board.archivableNotes().unscoped().build().archived).toBeNull();
    expect((await board.pinnedNotes().unscoped().findOrInitializeBy({ title: "Initialized" })).pinned).toBe(false);
    const created = [
      await board.pinnedNotes().unscoped().create({ title: "Created" }),
      await board.pinnedNotes().unscoped().createOrThrow({ title: "Thrown" }),
      await board.pinnedNotes().unscoped().findOrCreateBy({ title: "Found or created" }),
    ];
    expect(created.map((note) => [note.pinned, note.archivableBoardId, note.isPersisted()])).toEqual(Array(3).fill([false, 1, true]));
    const stored = await env.DB.prepare("SELECT title, pinned, archivable_board_id AS board FROM archivable_notes WHERE id > 4 ORDER BY id").all();
    expect(stored.results).toEqual([
      { title: "Created", pinned: 0, board: 1 },
      { title: "Thrown", pinned: 0, board: 1 },
      { title: "Found or created", pinned: 0, board: 1 },
    ]);
    // Without unscoped(), the association's build still starts with the scope's equalities.
    expect([board.pinnedNotes().build().pinned, board.pinnedNotes().where({ title: "Pinned" }).build().pinned]).toEqual([true, true]);
  });
});

describe("defaultScope: uniqueness", () => {
  it("a uniqueness validation sees the rows the scope hides, as Rails' does (unscoped)", async () => {
    class UniquelyTitledNote extends ArchivableNote {
      static {
        this.validates("title", { uniqueness: true });
      }
    }
    const { events, UniquelyTitledNote: Notes } = listen({ models: { UniquelyTitledNote } });
    const duplicate = await Notes.create({ title: "Archived" });
    expect(duplicate.errors.fullMessages()).toEqual(["Title has already been taken"]);
    expect(events.at(-1)!.sql).toBe(`SELECT 1 AS "recordflare_one" FROM "archivable_notes" WHERE "title" = ?1 LIMIT 1`);
    expect((await Notes.create({ title: "Fresh" })).isPersisted()).toBe(true);
  });
});

describe("defaultScope: unscoped", () => {
  it("unscoped() on a Relation lifts the default scope and keeps its own conditions; Model.unscoped() is every row", async () => {
    const { events, ArchivableNote: Notes } = listen({ models: { ArchivableNote } });
    expect(titles(await Notes.where({ pinned: true }).unscoped().order({ id: "asc" }).toArray())).toEqual(["Pinned", "Pinned archived"]);
    expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE "pinned" = ?1 ORDER BY "id" ASC`);
    expect(await Notes.unscoped().count()).toBe(4);
    // Narrowing after unscoped() keeps it lifted.
    expect(await Notes.unscoped().where({ archived: true }).count()).toBe(2);
  });

  it("Model.unscoped(fn) lifts it for the Model's queries inside fn, across awaits, and returns what fn returns", async () => {
    const counts = await ArchivableNote.unscoped(async () => {
      const all = await ArchivableNote.count();
      await Promise.resolve();
      const pinned = await PinnedNote.count();
      const note = await ArchivableNote.find(2);
      return { all, pinned, title: note.title };
    });
    // A subclass is lifted with its parent (its own declaration too); the parent is not lifted by the subclass's.
    expect(counts).toEqual({ all: 4, pinned: 4, title: "Archived" });
    expect(await ArchivableNote.count()).toBe(2);
    expect(await PinnedNote.unscoped(() => ArchivableNote.count())).toBe(2);
    const reloaded = await ArchivableNote.find(1);
    await ArchivableNote.unscoped().where({ id: 1 }).updateAll({ archived: true });
    await ArchivableNote.unscoped(() => reloaded.reload());
    expect(reloaded.archived).toBe(true);
  });

  it("does not lift the tenant's condition: multi-tenancy is a boundary, not a scope", async () => {
    await withTenant("acme", async () => {
      const { events, TenantNote: Notes } = listen({ models: { TenantNote } });
      expect(await Notes.count()).toBe(2);
      expect(titles(await Notes.unscoped().order({ id: "asc" }).toArray())).toEqual(["Kept", "Archived", "Pinned"]);
      expect(events.at(-1)!.sql).toBe(`SELECT * FROM "archivable_notes" WHERE "tenant_id" = ?1 ORDER BY "id" ASC`);
      expect(await TenantNote.unscoped(() => TenantNote.count())).toBe(3);
      expect(await TenantNote.unscoped().updateAll({ title: "Mine" })).toBe(3);
    });
    expect((await rows()).map((row) => row["title"])).toEqual(["Mine", "Mine", "Mine", "Pinned archived"]);
  });
});

describe("defaultScope: cost", () => {
  it("runs once per query, however often the query compiles (a page with its total and preloads)", async () => {
    await ArchivableBoard.includes("archivableNotes").toArray();
    expect(scopeRuns.count).toBe(1);
    scopeRuns.count = 0;
    await ArchivableNote.where({ pinned: false }).paginate({ page: 1, perPage: 5 });
    expect(scopeRuns.count).toBe(1);
    scopeRuns.count = 0;
    await ArchivableNote.find(1);
    expect(scopeRuns.count).toBe(1);
    // A Relation's create builds with the scope it started with.
    scopeRuns.count = 0;
    expect((await ArchivableNote.where({ pinned: true }).createOrThrow({ title: "New" })).archived).toBe(false);
    expect(scopeRuns.count).toBe(1);
  });

  it("adds no query: a find, a page with its total and an includes are one round trip each", async () => {
    const trips = await counting(async () => {
      await ArchivableNote.find(1);
      await ArchivableNote.paginate({ page: 1, perPage: 1 });
      await ArchivableNote.includes("archivableBoard").toArray();
    });
    expect(trips.map((trip) => trip.length)).toEqual([1, 2, 2]);
  });

  it("a Model that declares none compiles as before: no condition, no hook", async () => {
    expect(ArchivableBoard.all().toSql()).toEqual({ sql: `SELECT * FROM "archivable_boards"`, params: [] });
    expect(ArchivableBoard.all().extension("defaultScope")).toBeUndefined();
    expect(ArchivableBoard.unscoped().extension("defaultScope")).toBeUndefined();
  });
});

describe("defaultScope: bad input", () => {
  it("refuses a body that is no function, and a declaration after the Model's first use, naming the Model", () => {
    expect(() => ArchivableNote.defaultScope("archived = 0" as never)).toThrow(new TypeError(`ArchivableNote.defaultScope takes a function of the Relation, not "archived = 0"`));
    expect(() => ArchivableNote.defaultScope((q) => q)).toThrow(InvalidModel);
  });

  it("refuses, at the first query, a body that returns no Relation or sets more than conditions", async () => {
    class Unordered extends Model({ id: "integer", title: "string" }) {
      static override tableName = "archivable_notes";
      static {
        this.defaultScope((q) => q.order({ id: "desc" }));
      }
    }
    class Broken extends Model({ id: "integer", title: "string" }) {
      static override tableName = "archivable_notes";
      static {
        this.defaultScope((() => ({ title: "x" })) as never);
      }
    }
    expect(() => Unordered.all()).toThrow(new TypeError("Unordered.defaultScope: a default scope only narrows (where, whereNot, or, none); this one sets order"));
    expect(() => Broken.where({ id: 1 })).toThrow(/^Broken\.defaultScope: the body must return a Relation of Broken, not/);
    expect(await rejectionOf(Broken.find(1))).toBeInstanceOf(TypeError);
  });

  it("refuses an argument to a Relation's unscoped() and a non-function to Model.unscoped", () => {
    const relation = ArchivableNote.all();
    expect(() => (relation.unscoped as (fn: unknown) => unknown).call(relation, () => 1)).toThrow(/^ArchivableNote: Relation\.unscoped takes no argument/);
    expect(() => (ArchivableNote.unscoped as (fn: unknown) => unknown).call(ArchivableNote, 5)).toThrow(/^ArchivableNote\.unscoped takes no argument, or a function/);
  });
});
