import { beforeEach, describe, expect, it } from "vitest";
import { associationCounts, associations, counterCaches, hasMany, Model } from "../../src/index.js";
import { Relation } from "../../src/plugin.js";
import { associationWork } from "../../src/plugins/associations/association-hooks.js";
import { installedWork } from "../../src/plugins/associations/installation.js";
import { counterCacheWork } from "../../src/plugins/associations/counter-cache.js";
import { associationCountWork } from "../../src/plugins/associations/with-count.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";

beforeEach(resetDatabase);

const USERS = { id: { type: "string", null: false, generateId: true }, name: { type: "string", null: false }, email: "string", createdAt: "datetime", updatedAt: "datetime" } as const;
const POSTS = { id: { type: "string", null: false, generateId: true }, userId: { type: "string", null: false }, title: { type: "string", null: false }, createdAt: "datetime", updatedAt: "datetime" } as const;

// No Model of this file declares an association before the first tests: this file's modules have installed none.
class InstUser extends Model(USERS) {
  static override binding = "DB";
  static override tableName = "users";
}

describe("associations installed by the first declaration", () => {
  it("while no Model declares one, nothing is installed and the association methods refuse, naming the Model and method", async () => {
    const user = await InstUser.create({ name: "ada", email: "ada@example.com" });
    expect(installedWork()).toBeUndefined();
    expect(user.asJson()).toEqual(user.toJSON());
    expect(user.asJson({ include: [] as never })).toEqual(user.toJSON());
    const refusal = (method: string) => `InstUser.${method}: InstUser has no associations (hasMany, hasOne or belongsTo)`;
    expect(() => user.asJson({ include: "posts" as never })).toThrow(new TypeError(refusal("asJson")));
    expect(() => user.reloadAssociation("posts" as never)).toThrow(new TypeError(refusal("reloadAssociation")));
    expect(() => InstUser.withCount("posts" as never)).toThrow(new TypeError(refusal("withCount")));
    expect(() => InstUser.where({ name: "ada" }).whereCount("posts" as never, ">", 1)).toThrow(new TypeError(refusal("whereCount")));
    expect(() => InstUser.orderByCount("posts" as never)).toThrow(new TypeError(refusal("orderByCount")));
    expect(() => InstUser.resetCounters(user.id, "posts" as never)).toThrow(new TypeError(refusal("resetCounters")));
    const { events, InstUser: Listened } = listen({ models: { InstUser } });
    await expect(Listened.includes("posts" as never).toArray()).rejects.toThrow(new TypeError("InstUser.includes: posts is not an association of InstUser"));
    expect(events).toEqual([]);
    expect(installedWork()).toBeUndefined();
    // Conditions by association name wrap nothing yet: the Model's where and whereNot are the kernel's, at no cost.
    expect([InstUser.all().where, InstUser.all().whereNot]).toEqual([Relation.prototype.where, Relation.prototype.whereNot]);
  });

  it("a Model's declarations install it at its first use, and every Model's methods then answer as declared", async () => {
    class InstWriter extends Model(USERS) {
      static override binding = "DB";
      static override tableName = "users";
      posts = hasMany(InstPost, { foreignKey: "userId" });
    }
    class InstPost extends Model(POSTS) {
      static override binding = "DB";
      static override tableName = "posts";
    }
    const writer = await InstWriter.create({ name: "ann", email: "ann@example.com" });
    expect(installedWork()).toBeDefined();
    await InstPost.create({ userId: writer.id, title: "t" });
    const [counted] = await InstWriter.withCount("posts").toArray();
    expect(counted!.postsCount).toBe(1);
    expect(() => InstUser.withCount("posts" as never)).toThrow(new TypeError("InstUser.withCount: posts is not an association of InstUser"));
    // A Model made from now on reads association names in conditions; one made before keeps the kernel's methods.
    expect(InstWriter.all().where).not.toBe(Relation.prototype.where);
    expect(() => InstWriter.where({ posts: [] } as never)).toThrow(new TypeError("InstWriter.where: posts is a hasMany association; conditions take a belongsTo's records"));
    expect(InstUser.all().where).toBe(Relation.prototype.where);
  });

  it("each plugin registers a hook for every hook of its work, and a method for every method of it", () => {
    const names = (object: object | undefined) => Object.keys(object ?? {}).sort();
    expect(names(associations.hooks)).toEqual(names(associationWork.hooks));
    expect(names(counterCaches.hooks)).toEqual(names(counterCacheWork.hooks));
    expect(names(associationCounts.hooks)).toEqual(names(associationCountWork.hooks));
    expect(names(associationCounts.relationMethods)).toEqual(names(associationCountWork.methods));
    const base = class {};
    associations.setup!(base);
    counterCaches.setup!(base);
    expect(names(base.prototype)).toEqual(names(associationWork.methods));
    expect(names(base)).toEqual(names(counterCacheWork.methods));
  });
});
