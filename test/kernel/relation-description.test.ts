/**
 * A Relation's description as plugins see it (`relation.description`, and `data` in the compile hooks' context):
 * frozen, its lists too; and the plugin API's ways to remake a Relation (`relationOf` with a Relation,
 * `pluginRelationOf`) and to learn its bound database (`databaseOfRelation`).
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { connect, Model, sql } from "../../src/index.js";
import {
  databaseOfRelation,
  differencesBesidesConditions,
  joinSelect,
  pluginRelationOf,
  Relation,
  relationOf,
  selectParts,
  type RelationCompileContext,
} from "../../src/plugin.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { Post, User } from "../models/fixtures.js";

beforeEach(resetDatabase);

const asRelation = (relation: unknown) => relation as Relation;

describe("relation.description", () => {
  it("names every entry of the description", () => {
    const relation = asRelation(User.where({ name: "Ada" }).order({ age: "desc" }).limit(5).offset(10).select("name").distinct());
    const { conditions, order, limit, offset, select, distinct, none, includes, extensions } = relation.description;
    expect(conditions).toHaveLength(1);
    expect(conditions[0]).toMatchObject({ kind: "equal", value: "Ada" });
    expect(order).toMatchObject([{ kind: "attribute", direction: "desc" }]);
    expect(order[0]!.kind === "attribute" && order[0]!.attribute.name).toBe("age");
    expect([limit, offset, distinct, none]).toEqual([5, 10, true, false]);
    expect(select!.map((attribute) => attribute.name)).toEqual(["name"]);
    expect(includes).toEqual([]);
    expect(extensions).toEqual({});
    expect(asRelation(User.none()).description.none).toBe(true);
    expect(asRelation(User.all()).description.select).toBeUndefined();
    expect(asRelation(User.all().withExtension("label", "a")).description.extensions).toEqual({ label: "a" });
  });

  it("is frozen, its lists too: no plugin changes a Relation that others hold", () => {
    const relation = asRelation(User.where({ name: "Ada" }).select("name"));
    const sqlBefore = relation.toSql();
    const { description } = relation;
    // Frozen in place: reading it again gives the same description, with no copy made.
    expect(relation.description).toBe(description);
    expect(Object.isFrozen(description)).toBe(true);
    expect(() => (description.conditions as unknown[]).push({ kind: "never" })).toThrow(TypeError);
    expect(() => (description.order as unknown[]).push({ kind: "sql", fragment: sql`1` })).toThrow(TypeError);
    expect(() => (description.select as unknown[]).pop()).toThrow(TypeError);
    expect(() => (description.includes as string[]).push("posts")).toThrow(TypeError);
    expect(() => ((description.extensions as Record<string, unknown>)["label"] = "a")).toThrow(TypeError);
    expect(() => ((description as { limit: number }).limit = 1)).toThrow(TypeError);
    expect(relation.toSql()).toEqual(sqlBefore);
    // The kernel's own narrowing still makes new lists from the frozen ones.
    expect(relation.where({ age: 3 }).description.conditions).toHaveLength(2);
  });

  it("is what the compile hooks get as data: frozen too", () => {
    const seen: RelationCompileContext["data"][] = [];
    class Watched extends Model({ id: "string", name: "string" }) {
      static override tableName = "users";
      static {
        this.hook("relation:where", ({ data, parts }) => {
          seen.push(data);
          if (data.extensions["onlyAda"]) parts.where.push(`"name" = ${parts.params.bind("Ada")}`);
        });
      }
    }
    const relation = asRelation(Watched.where({ id: "1" }).withExtension("onlyAda", true));
    expect(relation.toSql()).toEqual({ sql: `SELECT * FROM "users" WHERE "id" = ?1 AND "name" = ?2`, params: ["1", "Ada"] });
    expect(seen).toHaveLength(1);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(seen[0]!.conditions).toHaveLength(1);
    expect(() => (seen[0]!.conditions as unknown[]).push({ kind: "never" })).toThrow(TypeError);
  });

  it("is what the compiler's pieces read: differencesBesidesConditions and selectParts take it", () => {
    const ordered = asRelation(User.where({ name: "a" }).order({ name: "asc" }));
    const other = asRelation(User.where({ name: "b" }));
    expect(differencesBesidesConditions(ordered.description, other.description, ordered.model)).toEqual(["order"]);
    expect(joinSelect(selectParts(ordered.description, ordered.model))).toBe(`SELECT * FROM "users" WHERE "name" = ?1 ORDER BY "name" ASC`);
  });
});

describe("relationOf and pluginRelationOf", () => {
  it("relationOf(Model, relation) gives the Relation's description the Model's own methods, on the Model it is given", async () => {
    const { db, events } = listen();
    await User.createOrThrow({ name: "Ada" });
    const plain = pluginRelationOf(asRelation(User.where({ name: "Ada" })));
    const remade = relationOf(db.model(User), plain);
    expect(remade.toSql()).toEqual(plain.toSql());
    expect(databaseOfRelation(remade)).toBe(db);
    expect(await remade.toArray()).toHaveLength(1);
    expect(events).toHaveLength(1);
  });

  it("relationOf refuses a Relation of another Model, or what is no Relation, naming the Model", () => {
    expect(() => relationOf(User, asRelation(Post.all()))).toThrow(new TypeError("User: relationOf takes a Relation of User, not [object Relation]"));
    expect(() => relationOf(User, {} as Relation)).toThrow(new TypeError("User: relationOf takes a Relation of User, not {}"));
  });

  it("pluginRelationOf keeps the description and the bound Model, without the Model's own Relation methods", () => {
    class Scoped extends Model({ id: "string", name: "string" }) {
      static override tableName = "users";
      static named = this.scope((q) => q.where({ name: "Ada" }));
    }
    const db = connect(env.DB);
    const relation = asRelation(db.model(Scoped).where({ id: "1" }));
    expect("named" in relation).toBe(true);
    const plain = pluginRelationOf(relation);
    expect("named" in plain).toBe(false);
    expect(plain.toSql()).toEqual(relation.toSql());
    expect(databaseOfRelation(plain)).toBe(db);
  });
});

describe("databaseOfRelation", () => {
  it("is the database of the bound Model a Relation queries, undefined for the Model itself", () => {
    const db = connect(env.DB);
    expect(databaseOfRelation(asRelation(db.model(User).where({ name: "a" }).limit(1)))).toBe(db);
    expect(databaseOfRelation(asRelation(User.where({ name: "a" })))).toBeUndefined();
  });
});
