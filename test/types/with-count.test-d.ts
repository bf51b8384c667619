import { expectTypeOf } from "vitest";
import { belongsTo, hasMany, Model } from "../../src/index.js";

class Comment extends Model({ id: "integer", linkId: "integer", approved: "boolean" }) {
  link = belongsTo(Link);
}

class Tagging extends Model({ id: "integer", linkId: "integer", tagId: "integer" }) {
  tag = belongsTo(Tag);
}

class Tag extends Model({ id: "integer", name: "string" }) {}

class Link extends Model({ id: "integer", title: "string", votesCount: "integer" }) {
  comments = hasMany(Comment);
  taggings = hasMany(Tagging);
  tags = hasMany(Tag, { through: this.taggings });
  votes = hasMany(Comment);
}

async function counts() {
  const link = (await Link.withCount("comments").first())!;
  expectTypeOf(link.commentsCount).toEqualTypeOf<number>();
  const both = (await Link.where({ title: "a" }).withCount("comments", "tags").order({ title: "asc" }).first())!;
  expectTypeOf(both.tagsCount).toEqualTypeOf<number>();
  expectTypeOf(both.commentsCount).toEqualTypeOf<number>();
  const scoped = await Link.withCount({ comments: (q) => q.where({ approved: true }) }, "tags").toArray();
  expectTypeOf(scoped[0]!.commentsCount).toEqualTypeOf<number>();
  const page = await Link.withCount("comments").whereCount("comments", ">", 5).orderByCount("comments", "desc").paginate();
  expectTypeOf(page.records[0]!.commentsCount).toEqualTypeOf<number>();

  // Records loaded without withCount have no count.
  const plain = (await Link.first())!;
  // @ts-expect-error no withCount, no commentsCount
  void plain.commentsCount;
  // @ts-expect-error a name withCount was not given
  void link.tagsCount;
  // @ts-expect-error an unknown association
  void Link.withCount("nope");
  // @ts-expect-error a belongsTo is not counted
  void Comment.withCount("link");
  // @ts-expect-error votesCount is an attribute (a counter cache) the count would hide
  void Link.withCount("votes");
  // whereCount and orderByCount load no count, so they take it.
  void Link.whereCount("votes", ">", 1);
  void Link.orderByCount("votes", "desc");
  // @ts-expect-error at least one name
  void Link.withCount();
  // @ts-expect-error an object names associations
  void Link.withCount({ nope: (q: any) => q });
  // @ts-expect-error whereCount takes a comparison operator
  void Link.whereCount("comments", "LIKE", 1);
  // @ts-expect-error whereCount compares with a number
  void Link.whereCount("comments", ">", "1");
  // @ts-expect-error orderByCount names a counted association
  void Link.all().orderByCount("title");
  // @ts-expect-error a direction is asc or desc
  void Link.orderByCount("comments", "up");
}
void counts;
