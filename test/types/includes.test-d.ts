import { Article, Writer } from "../models/association-fixtures.js";
import { expectTypeOf } from "vitest";
import { hasMany, Model } from "../../src/index.js";
import { Author, Book, Portrait } from "./authors-and-books.js";

// Nested includes take the association names of each level's target.
Writer.includes("posts", { posts: ["author"] });

Writer.includes({ posts: { author: "profile" } });

Writer.includes("profile", { posts: { user: ["posts", { posts: "author" }] } });

Article.includes("user", { author: ["posts", "profile"] });

Writer.where({ name: "Ada" }).includes({ posts: ["user"] }, "profile");

// @ts-expect-error: comments is not an association of Article
Writer.includes({ posts: ["comments"] });

// @ts-expect-error: nothing is not an association of Writer (the author)
Writer.includes({ posts: { author: "nothing" } });

// @ts-expect-error: nothing is not an association of Writer
Writer.includes({ nothing: ["posts"] });

// @ts-expect-error: bio is an attribute, not an association
Writer.where({ name: "Ada" }).includes({ profile: ["bio"] });

// @ts-expect-error: a Relation's includes checks nested names too
Writer.all().includes({ posts: { user: ["comments"] } });

// ---- includes and reloadAssociation take association names --------------------------------------------------

async function associationNames(author: Author, book: Book) {
  Author.includes("books");
  Author.where({ admin: true }).includes("books", "portrait");
  Book.all().includes("author");
  expectTypeOf(Author.includes("portrait").toArray()).toEqualTypeOf<Promise<Author[]>>();

  // @ts-expect-error: nope is not an association
  Author.includes("nope");
  // @ts-expect-error: an attribute is not an association
  Author.all().includes("name");
  // @ts-expect-error: a method is not an association
  Author.where({ admin: true }).includes("save");
  // @ts-expect-error: books is an association of Author, not of Book
  Book.includes("books");
  // @ts-expect-error: Portrait declares no association
  Portrait.includes("author");

  // reloadAssociation resolves to what the association holds.
  expectTypeOf(author.reloadAssociation("books")).toEqualTypeOf<Promise<Book[]>>();
  expectTypeOf(author.reloadAssociation("portrait")).toEqualTypeOf<Promise<Portrait | null>>();
  expectTypeOf(book.reloadAssociation("author")).toEqualTypeOf<Promise<Author | null>>();
  // @ts-expect-error: nope is not an association
  void author.reloadAssociation("nope");
  // @ts-expect-error: an attribute is not an association
  void book.reloadAssociation("title");

  // A subclass may redeclare an association with a subclass of its target, which adds associations of its own.
  class Volume extends Book {
    chapters = hasMany(Chapter);
  }
  class Prolific extends Author {
    override books = hasMany(Volume);
  }
  Prolific.includes("books", "portrait");
  expectTypeOf(new Prolific().books().includes("chapters").toArray()).toEqualTypeOf<Promise<Volume[]>>();
}
void associationNames;
class Chapter extends Model({ id: { type: "string", null: false }, volumeId: "string" }) {}
