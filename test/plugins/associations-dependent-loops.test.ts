/** Associations' dependents through loops: a Model its own dependent (threaded comments) and a loop through two Models. */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { countRows } from "../helpers/queries.js";
import { THREADED_TABLES, threadedComments } from "../models/threaded-comments.js";

beforeEach(async () => {
  await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
});

/** Two comments whose parents are each other (the second is made a reply first, then the first is pointed at it). */
async function twoCommentCycle(Comment: any) {
  const first = await Comment.create({ body: "first" });
  const second = await Comment.create({ body: "second", parentId: first.id });
  await Comment.where({ id: first.id }).updateAll({ parentId: second.id });
  return Comment.find(first.id);
}

describe("dependent destroy through a loop", () => {
  it("two comments that are each other's reply: destroy ends and deletes both", async () => {
    const { Comment } = threadedComments();
    const first = await twoCommentCycle(Comment);
    expect(await first.destroy()).toBe(first);
    expect(await countRows("tc_comments")).toBe(0);
  });

  it("a loop through two Models, rows pointing at each other: destroy ends and deletes all, callbacks once each", async () => {
    const { Shelf, Folder, log } = threadedComments({ callbacks: true });
    const shelf = await Shelf.create({ name: "s0" });
    const folder = await Folder.create({ name: "f1", tcShelfId: shelf.id });
    const inner = await Shelf.create({ name: "s1", tcFolderId: folder.id });
    await Folder.create({ name: "f2", tcShelfId: inner.id });
    await Shelf.where({ id: shelf.id }).updateAll({ tcFolderId: folder.id });
    const loaded = await Shelf.find(shelf.id);
    expect(await loaded.destroy()).toBe(loaded);
    expect([await countRows("tc_shelves"), await countRows("tc_folders")]).toEqual([0, 0]);
    expect(log.filter((line) => line.startsWith("before")).sort()).toEqual(["before folder f1", "before folder f2", "before shelf s0", "before shelf s1"]);
    // Children before parents: each after-callback follows those of the rows below it.
    expect(log.filter((line) => line.startsWith("after"))).toEqual(["after folder f2", "after shelf s1", "after folder f1", "after shelf s0"]);
  });

  it("a reply tree with callbacks: every comment destroyed once, children before parents, votes with them", async () => {
    const { User, Comment, Vote, log } = threadedComments({ callbacks: true });
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    const reply = await Comment.create({ parentId: root.id, tcUserId: user.id, body: "reply" });
    await Comment.create({ parentId: reply.id, body: "nested" });
    await Vote.create({ tcCommentId: reply.id });
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect([await countRows("tc_comments"), await countRows("tc_votes"), await countRows("tc_users")]).toEqual([0, 0, 0]);
    expect(log.filter((line) => line.startsWith("after"))).toEqual(["after nested", "after reply", "after root"]);
    expect(log.filter((line) => line.startsWith("before")).sort()).toEqual(["before nested", "before reply", "before root"]);
  });

  it("nullify does not descend: only the owner's own children lose their key", async () => {
    const { User, Comment } = threadedComments({ comments: "nullify" });
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    await Comment.create({ parentId: root.id, tcUserId: user.id, body: "reply" });
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect(await Comment.order({ id: "asc" }).pluck("body", "tcUserId", "parentId")).toEqual([
      ["root", null, null],
      ["reply", null, root.id],
    ]);
  });

  it("restrictWithError deep in a reply tree refuses the destroy, with or without callbacks, and writes nothing", async () => {
    for (const callbacks of [false, true]) {
      await env.DB.batch(THREADED_TABLES.map((table) => env.DB.prepare(`DELETE FROM ${table}`)));
      const { User, Comment, Flag } = threadedComments({ callbacks, commentFlags: "restrictWithError" });
      const user = await User.create({ name: "ada" });
      let parent = await Comment.create({ tcUserId: user.id, body: "0" });
      for (let depth = 1; depth < 6; depth++) parent = await Comment.create({ parentId: parent.id, body: String(depth) });
      await Flag.create({ tcCommentId: parent.id });
      const loaded = await User.find(user.id);
      await expect(loaded.destroyOrThrow()).rejects.toThrow("Cannot delete record because dependent flags exist");
      expect(await countRows("tc_comments")).toBe(6);
      expect(loaded.isPersisted()).toBe(true);
    }
  });

  it("restrictWithError on a Model its own dependent: the owner's own child refuses it with an entry in errors", async () => {
    const { Comment, Flag } = threadedComments({ commentFlags: "restrictWithError" });
    const root = await Comment.create({ body: "root" });
    await Comment.create({ parentId: root.id, body: "reply" });
    await Flag.create({ tcCommentId: root.id });
    expect(await root.destroy()).toBe(false);
    expect(root.errors.fullMessages()).toEqual(["Cannot delete record because dependent flags exist"]);
    expect(await countRows("tc_comments")).toBe(2);
  });

  it("deleteAll under a loop deletes the rows of every level, and nothing of another thread", async () => {
    const { User, Comment, Flag } = threadedComments();
    const user = await User.create({ name: "ada" });
    const root = await Comment.create({ tcUserId: user.id, body: "root" });
    const reply = await Comment.create({ parentId: root.id, body: "reply" });
    const other = await Comment.create({ body: "other" });
    await Flag.insertAll([{ tcCommentId: root.id }, { tcCommentId: reply.id }, { tcCommentId: other.id }]);
    expect(await (await User.find(user.id)).destroy()).toBeTruthy();
    expect(await Flag.pluck("tcCommentId")).toEqual([other.id]);
    expect(await Comment.pluck("body")).toEqual(["other"]);
  });
});
