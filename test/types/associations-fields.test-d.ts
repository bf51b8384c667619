/** Compile-time checks of association fields' types. Only type-checked by tsc --noEmit. */
import { expectTypeOf } from "vitest";
import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";
import { User, Post, Profile } from "./generated-app.js";

// ---- SPEC Associations: field types --------------------------------------------------------------------

async function associations(user: User, post: Post, profile: Profile) {
  // hasMany: user.posts() finds records; user.posts().build(attrs) builds a child.
  expectTypeOf(user.posts().toArray()).toEqualTypeOf<Promise<Post[]>>();
  expectTypeOf(user.posts().build({ title: "x" })).toEqualTypeOf<Post>();
  expectTypeOf(user.posts().where({ published: true }).first()).toEqualTypeOf<Promise<Post | null>>();
  expectTypeOf(user.posts().pluck("title", "published")).toEqualTypeOf<Promise<[string, boolean][]>>();
  expectTypeOf(user.posts().count()).toEqualTypeOf<Promise<number>>();
  // @ts-expect-error: nope is not an attribute of posts
  user.posts().where({ nope: 1 });
  // @ts-expect-error: title is a string attribute
  user.posts().build({ title: 5 });

  // hasMany set and setIds (Rails' posts= and post_ids=): records of the target, keys of its key's type.
  expectTypeOf(user.posts().set([post])).toEqualTypeOf<Promise<void>>();
  expectTypeOf(user.posts().setIds([post.id, "7"])).toEqualTypeOf<Promise<void>>();
  const ids: readonly string[] = [post.id];
  void user.posts().setIds(ids);
  // @ts-expect-error: Post's keys are strings
  void user.posts().setIds([7]);
  // @ts-expect-error: a list of keys, not one
  void user.posts().setIds(post.id);
  // @ts-expect-error: a list of records, not one
  void user.posts().set(post);
  // @ts-expect-error: a Profile is not a Post
  void user.posts().set([profile]);

  // hasMany add and remove (Rails' << and delete): any number of records of the target, not a list.
  expectTypeOf(user.posts().add(post)).toEqualTypeOf<Promise<void>>();
  expectTypeOf(user.posts().add(post, post)).toEqualTypeOf<Promise<void>>();
  expectTypeOf(user.posts().remove(post)).toEqualTypeOf<Promise<void>>();
  expectTypeOf(user.posts().remove()).toEqualTypeOf<Promise<void>>();
  // @ts-expect-error: a Profile is not a Post
  void user.posts().add(profile);
  // @ts-expect-error: a Profile is not a Post
  void user.posts().remove(post, profile);
  // @ts-expect-error: records, not a list of them
  void user.posts().add([post]);
  // @ts-expect-error: records, not keys
  void user.posts().remove(post.id);

  // belongsTo: post.user; post.user.set(record) assigns.
  expectTypeOf(post.user.load()).toEqualTypeOf<Promise<User | null>>();
  expectTypeOf(post.user.get()).toEqualTypeOf<User | null>();
  post.user.set(user);
  post.user.set(null);
  // @ts-expect-error: a Post is not a User
  post.user.set(post);
  // @ts-expect-error: a Profile is not a User
  post.user.set(profile);

  // hasOne: user.profile.build() builds the child.
  expectTypeOf(user.profile.build()).toEqualTypeOf<Profile>();
  expectTypeOf(user.profile.build({ bio: "hi" })).toEqualTypeOf<Profile>();
  expectTypeOf(user.profile.load()).toEqualTypeOf<Promise<Profile | null>>();
  // @ts-expect-error: bio is a string attribute
  user.profile.build({ bio: 5 });

  // Association fields are not attributes.
  // @ts-expect-error: posts is not an attribute
  User.where({ posts: 1 });
  // @ts-expect-error: posts is not an attribute
  void User.pluck("posts");
  // @ts-expect-error: posts is not an attribute
  User.select("posts");
  // @ts-expect-error: attributes() has no associations
  void user.attributes().posts;
  // @ts-expect-error: toJSON() never includes associations
  void user.toJSON().posts;
}
void associations;

// ---- setIds takes the target's key type: numbers for an integer key -------------------------------------

class Shelf extends Model({ id: "integer", name: "string" }) {
  books = hasMany(ShelvedBook);
}
class ShelvedBook extends Model({ id: { type: "integer", null: false }, shelfId: "integer" }) {}

async function integerKeys(shelf: Shelf) {
  expectTypeOf(shelf.books().setIds([1, 2])).toEqualTypeOf<Promise<void>>();
  // @ts-expect-error: ShelvedBook's keys are numbers; a form's "1" is cast first
  void shelf.books().setIds(["1"]);
  // @ts-expect-error: null is no key
  void shelf.books().setIds([null]);
}
void integerKeys;
