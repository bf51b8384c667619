/** Associations key the writes that reach other rows on the record's key as stored, not on an unsaved assignment. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { belongsTo, type Dependent } from "../../src/index.js";
import { countRows } from "../helpers/queries.js";
import { THREADED_TABLES, threadedComments } from "../models/threaded-comments.js";

beforeEach(async () => {
  await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** Users p and q with two comments each; p is loaded and given q's id, as a form carrying an id would. */
async function reassigned(options: { comments: Dependent; callbacks?: boolean }) {
  const models = threadedComments(options);
  const p = await models.User.create({ name: "p" });
  const q = await models.User.create({ name: "q" });
  for (const owner of [p, q]) await models.Comment.insertAll([{ tcUserId: owner.id, body: `${owner.name}1` }, { tcUserId: owner.id, body: `${owner.name}2` }]);
  const loaded = await models.User.find(p.id);
  loaded.id = q.id;
  return { ...models, p: loaded, pId: p.id, qId: q.id };
}

const bodiesOf = async (Comment: any, userId: number | null) => (await Comment.where({ tcUserId: userId }).order({ id: "asc" }).pluck("body")) as string[];

describe("dependents key on the owner's stored key", () => {
  for (const callbacks of [false, true]) {
    it(`destroy${callbacks ? " (with callbacks)" : ""} destroys p's children, not those of the id assigned`, async () => {
      const { p, Comment, qId } = await reassigned({ comments: "destroy", callbacks });
      expect(await p.destroy()).toBe(p);
      expect(await Comment.order({ id: "asc" }).pluck("body")).toEqual(["q1", "q2"]);
      expect(await bodiesOf(Comment, qId)).toEqual(["q1", "q2"]);
      expect(await countRows("tc_users")).toBe(1);
    });
  }

  it("deleteAll deletes p's children, not those of the id assigned", async () => {
    const { p, Comment } = await reassigned({ comments: "deleteAll" });
    expect(await p.destroy()).toBe(p);
    expect(await Comment.order({ id: "asc" }).pluck("body")).toEqual(["q1", "q2"]);
  });

  it("nullify nullifies p's children, not those of the id assigned", async () => {
    const { p, Comment, qId } = await reassigned({ comments: "nullify" });
    expect(await p.destroy()).toBe(p);
    expect(await bodiesOf(Comment, null)).toEqual(["p1", "p2"]);
    expect(await bodiesOf(Comment, qId)).toEqual(["q1", "q2"]);
  });

  it("restrictWithError asks about p's children, not those of the id assigned", async () => {
    const refused = await reassigned({ comments: "restrictWithError" });
    expect(await refused.p.destroy()).toBe(false);
    await refused.Comment.where({ tcUserId: refused.pId }).deleteAll();
    expect(await refused.p.destroy()).toBe(refused.p);
    expect(await bodiesOf(refused.Comment, refused.qId)).toEqual(["q1", "q2"]);
  });

  it("the association's Relation is p's rows until the new key is saved", async () => {
    const { p, Comment } = await reassigned({ comments: "destroy" });
    expect((await p.comments().toArray()).map((comment: any) => comment.body)).toEqual(["p1", "p2"]);
    expect(await p.comments().count()).toBe(2);
    expect(await Comment.count()).toBe(4);
  });

  it("a hasOne child built after the key is reassigned replaces p's saved child, and takes the key saved", async () => {
    const { User, Flag } = threadedComments();
    const p = await User.create({ name: "p" });
    const q = await User.create({ name: "q" });
    await Flag.insertAll([{ tcUserId: p.id }, { tcUserId: q.id }]);
    const loaded = await User.find(p.id);
    loaded.id = 999;
    loaded.flag.build({});
    expect(await loaded.save()).toBe(true);
    expect(await Flag.order({ tcUserId: "asc" }).pluck("tcUserId")).toEqual([q.id, 999]);
  });

  it("belongsTo set with a saved parent whose key is reassigned takes the key of its row", async () => {
    const { Comment } = threadedComments();
    class Reply extends Comment {
      parent = belongsTo(Comment, { foreignKey: "parentId", optional: true });
    }
    const reply = await Reply.create({ body: "reply" });
    const parent = await Comment.create({ body: "parent" });
    const savedId = parent.id;
    parent.id = 999;
    reply.parent.set(parent);
    expect(reply.parentId).toBe(savedId);
  });
});
