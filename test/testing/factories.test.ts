import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { RecordInvalid } from "../../src/index.js";
import { countQueries, defineFactory } from "../../src/testing/index.js";
import { resetDatabase } from "../helpers/db.js";
import { rejectionOf } from "../helpers/errors.js";
import { Post, User } from "../models/fixtures.js";
import { Engineer, StiTeam } from "../models/staff-members.js";
import { countedComments } from "../models/counted-comments.js";

beforeEach(async () => {
  await resetDatabase();
  await env.DB.exec("DELETE FROM sti_staff; DELETE FROM sti_teams;");
});

const users = defineFactory(User, (n) => ({ name: `User ${n}`, email: `user${n}@example.com` }), {
  traits: { admin: { admin: true }, named: (n) => ({ name: `Named ${n}` }) },
});
const posts = defineFactory(Post, (n) => ({ title: `Post ${n}`, userId: users }));
const teams = defineFactory(StiTeam, (n) => ({ name: `Team ${n}` }));
const engineers = defineFactory(Engineer, (n) => ({ name: `Engineer ${n}`, level: 1, stiTeamId: teams }));

const count = async (table: string) => (await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe("recordflare/testing: factories", () => {
  it("build gives unsaved records with a sequence, traits in order, then overrides", async () => {
    const [first, second] = [users.build(), users.build({ email: "given@example.com" }, "admin", "named")];
    expect(first.isNewRecord()).toBe(true);
    expect(second.email).toBe("given@example.com");
    expect(second.admin).toBe(true);
    expect(second.name).toMatch(/^Named \d+$/);
    expect(Number(first.name.split(" ")[1]) + 1).toBe(Number(second.name.split(" ")[1]));
    expect(await count("users")).toBe(0);
  });

  it("createList saves every record, validations and callbacks run, in one round trip past 100 bound values", async () => {
    const { result, roundTrips } = await countQueries(() => users.createList(150));
    expect(roundTrips).toHaveLength(1);
    expect(roundTrips[0]!.length).toBe(150);
    expect(result.every((user) => user.isPersisted() && user.createdAt instanceof Date)).toBe(true);
    expect(await count("users")).toBe(150);
    expect(new Set(result.map((user) => user.email)).size).toBe(150);
  });

  it("an attribute given a factory gets a new parent's key: parents and children in one batch when keys are made in code", async () => {
    const { result, roundTrips } = await countQueries(() => posts.createList(3));
    expect(roundTrips).toHaveLength(1);
    expect(await count("users")).toBe(3);
    const owners = await User.where({ id: result.map((post) => post.userId) }).count();
    expect(owners).toBe(3);
  });

  it("parents whose integer keys the database numbers are saved first, in a round trip of their own", async () => {
    const { result, roundTrips } = await countQueries(() => engineers.createList(2));
    expect(roundTrips).toHaveLength(2);
    expect(result.map((engineer) => engineer.stiTeamId)).toEqual([expect.any(Number), expect.any(Number)]);
    expect(await StiTeam.where({ id: result.map((engineer) => engineer.stiTeamId!) }).count()).toBe(2);
  });

  it("a record its validations refuse fails the create with RecordInvalid, and nothing of its batch is written", async () => {
    const error = await rejectionOf(engineers.createList(2, { level: null }));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(await count("sti_staff")).toBe(0);
  });

  it("an unknown trait or a bad count is refused naming the factory's Model", async () => {
    expect(() => users.build({}, "nope" as never)).toThrow(`defineFactory(User): no trait named "nope"`);
    await expect(users.createList(-1)).rejects.toThrow("User factory: createList takes a whole number of records, not -1");
    await expect(users.createList({ count: 2 } as never)).rejects.toThrow("User factory: createList takes a whole number of records, not { count: 2 }");
    expect(() => users.buildList(1.5)).toThrow("User factory: buildList takes a whole number of records, not 1.5");
    expect(() => users.build({}, 7n as never)).toThrow("defineFactory(User): no trait named 7n");
    expect(() => defineFactory(User, {} as never)).toThrow("defineFactory(User): the definition is a function of the sequence number giving attributes");
  });

  it("defineFactory refuses an option other than traits, and traits that are not attribute sets or functions, naming itself and the option", () => {
    const definition = (n: number) => ({ name: `User ${n}` });
    expect(() => defineFactory(User, definition, { trait: {} } as never)).toThrow('defineFactory(User): "trait" is not an option; the options are traits');
    expect(() => defineFactory(User, definition, { traits: 5 } as never)).toThrow(
      "defineFactory(User): traits takes an object of named traits, each attributes (an object) or a function of the sequence number giving them, not 5",
    );
    expect(() => defineFactory(User, definition, { traits: { admin: true } } as never)).toThrow(
      "defineFactory(User): traits.admin takes attributes (an object) or a function of the sequence number giving them, not true",
    );
    expect(() => defineFactory(User, definition, null as never)).toThrow("defineFactory(User) takes an options object, not null");
    expect(() => defineFactory(User, definition, "admin" as never)).toThrow(`defineFactory(User) takes an options object, not "admin"`);
  });

  it("overrides that are not an object, and a definition or trait returning none, are refused naming the method", async () => {
    expect(() => users.build("admin" as never)).toThrow(`User factory: build takes overrides (an object of attributes), then trait names, not "admin"`);
    await expect(users.create(5 as never)).rejects.toThrow("User factory: create takes overrides (an object of attributes), then trait names, not 5");
    await expect(users.createList(2, "admin" as never)).rejects.toThrow(`User factory: createList takes a count, then overrides (an object of attributes), then trait names, not "admin"`);
    expect(() => defineFactory(User, () => 5 as never).build()).toThrow("defineFactory(User): the definition returned 5, not an object of attributes");
    const odd = defineFactory(User, (n) => ({ name: `User ${n}` }), { traits: { broken: () => undefined as never } });
    expect(() => odd.build({}, "broken")).toThrow("defineFactory(User): the trait broken returned undefined, not an object of attributes");
    expect(await count("users")).toBe(0);
  });

  it("createList cuts its batches by the statements they send, counter caches' UPDATEs included: none over 500", async () => {
    const { Post: CountedPost, Comment } = countedComments();
    const counted = defineFactory(CountedPost, (n) => ({ title: `Post ${n}` }));
    const comments = defineFactory(Comment, (n) => ({ body: `Comment ${n}`, ccPostId: counted }));
    const { roundTrips } = await countQueries(() => comments.createList(600));
    const sizes = roundTrips.map((trip) => trip.length);
    // 600 INSERTs of posts, then 600 comments, each an INSERT and the UPDATE of its post's counter.
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(1800);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(500);
    expect(sizes).toEqual([500, 500, 500, 300]);
    const counters = await env.DB.prepare("SELECT comments_count AS n, COUNT(*) AS posts FROM cc_posts GROUP BY comments_count").all();
    expect(counters.results).toEqual([{ n: 1, posts: 600 }]);
    expect(await count("cc_comments")).toBe(600);
  });

  it("a record refused in a later batch fails that batch only; the batches before it stay written", async () => {
    const refusedAt = 520;
    let made = 0;
    const uneven = defineFactory(Engineer, (n) => ({ name: `Engineer ${n}`, level: ++made === refusedAt ? null : 1 }));
    const error = await rejectionOf(uneven.createList(600));
    expect(error).toBeInstanceOf(RecordInvalid);
    expect(await count("sti_staff")).toBe(500);
  });
});
