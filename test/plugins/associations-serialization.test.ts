import { beforeEach, describe, expect, it } from "vitest";
import { AssociationNotLoaded, belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { listen } from "../helpers/queries.js";
import { ApplicationRecord } from "../models/fixtures.js";

class Member extends ApplicationRecord("users") {
  static override hiddenAttributes = ["email"];
  posts = hasMany(Entry, { foreignKey: "userId" });
  profile = hasOne(Bio, { foreignKey: "userId" });
}

class Entry extends ApplicationRecord("posts") {
  user = belongsTo(Member, { foreignKey: "userId" });
}

class Remark extends Model({ id: { type: "string", null: false, generateId: true }, userId: "string", body: { type: "string", null: false } }) {
  static override binding = "DB";
  static override tableName = "reviews";
  user = belongsTo(Member, { foreignKey: "userId", optional: true });
}

class Bio extends Model({ id: { type: "string", null: false }, userId: { type: "string", null: false }, bio: "string" }) {
  static override binding = "DB";
  static override tableName = "profiles";
  user = belongsTo(Member, { foreignKey: "userId" });
}

beforeEach(resetDatabase);

async function blog() {
  const ada = Member.build({ name: "Ada", email: "ada@example.com" });
  ada.posts().build({ title: "Engines", published: true });
  ada.posts().build({ title: "Notes" });
  ada.profile.build({ id: "p1", bio: "Mathematician" });
  await ada.saveOrThrow();
  await Remark.create({ userId: ada.id, body: "Lovely" });
  return ada;
}

describe("asJson({ include }): loaded associations as nested JSON", () => {
  it("nests hasMany as an array, belongsTo and hasOne as objects, at any depth, without a query", async () => {
    await blog();
    const [member] = await Member.includes("posts", "profile").toArray();
    const posts = await member!.posts().toArray();
    for (const post of posts) await post.user.load();
    const { events } = listen();
    const json = member!.asJson({ include: ["profile", { posts: ["user"] }] });
    expect(events).toEqual([]);
    expect(json.name).toBe("Ada");
    expect(json).not.toHaveProperty("email");
    expect((json.profile as Record<string, unknown>).bio).toBe("Mathematician");
    const titles = (json.posts as Array<Record<string, unknown>>).map((post) => post.title).sort();
    expect(titles).toEqual(["Engines", "Notes"]);
    expect(posts[0]!.asJson({ include: "user" }).user).toEqual(member!.toJSON());
    posts[0]!.user.set(member!);
    expect(posts[0]!.asJson({ include: { user: ["posts", "profile"] } }).user).toMatchObject({ name: "Ada", profile: { bio: "Mathematician" } });
  });

  it("serializes like JSON.stringify: dates as ISO strings, hidden attributes out at every level", async () => {
    await blog();
    const [post] = await Entry.includes("user").where({ title: "Engines" }).toArray();
    const json = JSON.parse(JSON.stringify(post!.asJson({ include: ["user"] })));
    expect(json.createdAt).toBe(post!.createdAt.toISOString());
    expect(json.user.createdAt).toBe(post!.user.get()!.createdAt.toISOString());
    expect(json.user).not.toHaveProperty("email");
    expect(json.user).not.toHaveProperty("posts");
  });

  it("toJSON() never includes associations, loaded or not; asJson() without include is toJSON()", async () => {
    await blog();
    const [member] = await Member.includes("posts", "profile").toArray();
    expect(member!.toJSON()).not.toHaveProperty("posts");
    expect(member!.toJSON()).not.toHaveProperty("profile");
    expect(member!.asJson()).toEqual(member!.toJSON());
    expect(member!.asJson({})).toEqual(member!.toJSON());
  });

  it("a null parent or missing child is null; an empty hasMany is []", async () => {
    const grace = await Member.createOrThrow({ name: "Grace" });
    const orphan = await Remark.createOrThrow({ body: "Anonymous" });
    const [loaded] = await Member.includes("posts", "profile").where({ id: grace.id }).toArray();
    expect(loaded!.asJson({ include: ["posts", "profile"] })).toMatchObject({ posts: [], profile: null });
    await orphan.user.load();
    expect(orphan.asJson({ include: ["user"] }).user).toBeNull();
  });

  it("an association assigned or built and not yet saved is serialized as it is loaded", () => {
    const post = Entry.build({ title: "Draft" });
    post.user.set(Member.build({ name: "Byron" }));
    expect(post.asJson({ include: "user" }).user).toMatchObject({ name: "Byron", id: expect.any(String) });
    const member = Member.build({ name: "Mary" });
    member.profile.build({ id: "p2", bio: "Novelist" });
    expect(member.asJson({ include: ["profile"] }).profile).toMatchObject({ bio: "Novelist" });
  });

  it("an association not loaded throws AssociationNotLoaded naming it, and queries nothing", async () => {
    await blog();
    const { db, events } = listen();
    const member = (await db.model(Member).first())!;
    events.length = 0;
    expect(() => member.asJson({ include: ["posts"] })).toThrow(AssociationNotLoaded);
    expect(() => member.asJson({ include: ["posts"] })).toThrow("Member.asJson: posts is not loaded");
    expect(() => member.asJson({ include: "profile" })).toThrow('use includes("profile")');
    await member.posts().toArray();
    expect(() => member.asJson({ include: { posts: ["user"] } })).toThrow("Entry.asJson: user is not loaded");
    expect(events.map((event) => event.sql)).toHaveLength(1);
  });

  it("refuses a name that is not an association, and an include of the wrong kind, with a TypeError", async () => {
    const member = Member.build({ name: "Ada" });
    expect(() => member.asJson({ include: ["name"] as never })).toThrow(new TypeError("Member.asJson: Member has no association name"));
    expect(() => member.asJson({ include: { postz: [] } as never })).toThrow("Member has no association postz");
    expect(() => member.asJson({ include: 3 as never })).toThrow(TypeError);
    expect(() => member.asJson({ include: [null] as never })).toThrow("include must be an association name, an object of them or a list, not null");
    expect(() => member.asJson({ include: { posts: 1 } as never })).toThrow(TypeError);
  });

  it("refuses an include nested deeper than 100 associations, or one that contains itself, with a TypeError", () => {
    const member = Member.build({ name: "Ada" });
    const cyclic: Record<string, unknown> = {};
    cyclic["posts"] = { user: cyclic };
    const list: unknown[] = [];
    list.push(list);
    for (const include of [cyclic, list]) {
      expect(() => member.asJson({ include: include as never })).toThrow(/^\w+\.asJson: includes nest at most 100 associations deep \(does an object contain itself\?\)$/);
    }
  });

  it("refuses options that are no options object, an option it does not take and a second argument, naming the method", () => {
    const member = Member.build({ name: "Ada" });
    expect(() => member.asJson(null as never)).toThrow(new TypeError("Member.asJson takes an options object, not null"));
    expect(() => member.asJson("posts" as never)).toThrow(new TypeError('Member.asJson takes an options object, not "posts"'));
    expect(() => member.asJson({ only: ["name"] } as never)).toThrow(new TypeError('Member.asJson: "only" is not an option; the options are include'));
    expect(() => (member.asJson as (...args: unknown[]) => unknown)({}, {})).toThrow(new TypeError("Member.asJson takes one argument, not 2"));
  });
});
