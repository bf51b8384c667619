import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { abort, belongsTo, connect, hasMany, hasOne, Model, IncompatibleRelation, RecordInvalid, RecordNotSaved } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen, recordingRoundTrips } from "../helpers/queries.js";
import {
  Article,
  Author,
  Book,
  Profile,
  TextKeyedAuthor,
  TextKeyedBook,
  Writer,
} from "../models/association-fixtures.js";
import { ApplicationRecord } from "../models/fixtures.js";
import { ThrPost } from "../models/tagged-posts.js";
import { Item as OwnedItem, Owner as ItemOwner, seedOwnedItemsSeen } from "../models/owners-and-items.js";
import { thrown } from "../helpers/errors.js";
import { SaaItem, SaaOwner } from "../models/titled-items-and-owners.js";

beforeEach(resetDatabase);

describe("hasMany", () => {
  it("user.posts() is a Relation of the children, keyed by the owner's name plus Id", async () => {
    const writer = await Writer.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    await Article.create({ userId: writer.id, title: "two" });
    const other = await Writer.create({ name: "Bob" });
    await Article.create({ userId: other.id, title: "other" });
    expect(writer.posts().toSql().sql).toBe(`SELECT * FROM "posts" WHERE "user_id" = ?1`);
    expect((await writer.posts().order({ title: "asc" }).toArray()).map((post) => post.title)).toEqual(["one", "two"]);
    expect(await writer.posts().where({ title: "two" }).count()).toBe(1);
  });

  it("children built through it are saved with the owner in ONE atomic batch", async () => {
    const { db, events } = listen();
    const writer = db.model(Writer).build({ name: "Ada" });
    const first = writer.posts().build({ title: "one" });
    writer.posts().build({ title: "two" });
    expect(first.userId).toBe(writer.id);
    expect(await writer.save()).toBe(true);
    expect(events).toHaveLength(3);
    expect(events.every((event) => event.batched)).toBe(true);
    expect(first.isPersisted()).toBe(true);
    expect(await countRows("posts")).toBe(2);
  });

  it("writes nothing when a child's insert fails", async () => {
    const writer = Writer.build({ name: "Ada" });
    writer.posts().build({ title: null as unknown as string });
    await expect(writer.save()).rejects.toThrow(/NOT NULL/);
    expect(await countRows("users")).toBe(0);
  });

  it("children prepared before a refused one take back their timestamps too", async () => {
    class TitledArticle extends Article {
      static {
        this.validates("title", { presence: true });
      }
    }
    class Editor extends Writer {
      articles = hasMany(TitledArticle, { foreignKey: "userId" });
    }
    const editor = Editor.build({ name: "Ada" });
    const first = editor.articles().build({ title: "one" });
    const blank = editor.articles().build({ title: "" });
    expect(await editor.save()).toBe(false);
    expect([first.createdAt, first.updatedAt]).toEqual([null, null]);
    blank.title = "two";
    expect(await editor.save()).toBe(true);
    expect(first.createdAt).toBeInstanceOf(Date);
    expect(await countRows("posts")).toBe(2);
  });

  it("a child refused by its validations or callbacks refuses the owner's save, which answers false", async () => {
    class TitledArticle extends Article {
      static {
        this.validates("title", { presence: true });
        this.beforeSave((article) => {
          if (article.title === "draft") throw abort("drafts are not published");
        });
      }
    }
    class Editor extends Writer {
      articles = hasMany(TitledArticle, { foreignKey: "userId" });
    }
    const { db, events } = listen();
    const editor = db.model(Editor).build({ name: "Ada" });
    const blank = editor.articles().build({ title: "" });
    expect(await editor.save()).toBe(false);
    expect(editor.createdAt).toBeNull(); // the refused save took back its timestamps
    expect(blank.errors.fullMessages()).toEqual(["Title can't be blank"]);
    expect(editor.errors.fullMessages()).toEqual(["TitledArticle is invalid: Title can't be blank"]);
    await expect(editor.saveOrThrow()).rejects.toThrow(RecordInvalid);

    blank.title = "draft";
    expect(await editor.save()).toBe(false);
    expect(editor.errors.isEmpty()).toBe(true);
    expect(editor.abortReason).toBe("drafts are not published");
    await expect(editor.saveOrThrow()).rejects.toThrow(RecordNotSaved);

    expect(events).toHaveLength(0);
    expect(await countRows("users")).toBe(0);
    blank.title = "published";
    expect(await editor.save()).toBe(true);
    expect(events).toHaveLength(2);
    expect(await countRows("posts")).toBe(1);
  });

  it("a loaded association answers size, isEmpty and hasAny without a query", async () => {
    const writer = await Writer.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    const { db, events } = listen();
    const [loaded] = await db.model(Writer).where({ id: writer.id }).includes("posts").toArray();
    expect(events).toHaveLength(2);
    events.length = 0;
    expect(await loaded!.posts().size()).toBe(1);
    expect(await loaded!.posts().hasAny()).toBe(true);
    expect(await loaded!.posts().isEmpty()).toBe(false);
    expect((await loaded!.posts().toArray())[0]!.title).toBe("one");
    expect(events).toHaveLength(0);
  });

  it("includes preloads each association in the batch of the main query, by a subquery of it", async () => {
    for (const name of ["a", "b", "c"]) {
      const writer = await Writer.create({ name });
      await Article.create({ userId: writer.id, title: `${name}1` });
      await Profile.create({ id: `p-${name}`, userId: writer.id, bio: name });
    }
    const { db, events } = listen();
    const writers = await db.model(Writer).order({ name: "asc" }).includes("posts", "profile").toArray();
    expect(events).toHaveLength(3);
    expect(events.map((event) => event.batched)).toEqual([true, true, true]);
    expect(events[1]!.params).toHaveLength(0);
    expect(events[1]!.sql).toContain('(SELECT DISTINCT "id" AS "recordflare_owner" FROM "recordflare_source"');
    expect(writers.map((writer) => writer.profile.get()?.bio)).toEqual(["a", "b", "c"]);
    const articles = await db.model(Article).includes("user").toArray();
    expect(articles.map((article) => article.user.get()?.name).sort()).toEqual(["a", "b", "c"]);
    // @ts-expect-error: not an association (a compile error in TypeScript; the runtime check is tested)
    await expect(Writer.includes("nothing").toArray()).rejects.toThrow(/nothing is not an association of Writer/);
  });

  it("paginate preloads the page's associations after it", async () => {
    const writer = await Writer.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    const { db, events } = listen();
    const page = await db.model(Writer).includes("posts").paginate({ perPage: 10 });
    expect(events).toHaveLength(3);
    expect(await page.records[0]!.posts().size()).toBe(1);
  });

  it("reloadAssociation reloads a loaded association", async () => {
    const writer = await Writer.create({ name: "Ada" });
    expect(await writer.posts().size()).toBe(0);
    await writer.posts().toArray();
    await Article.create({ userId: writer.id, title: "late" });
    expect(await writer.posts().size()).toBe(0);
    await writer.reloadAssociation("posts");
    expect(await writer.posts().size()).toBe(1);
  });
});

/** Writers Ada and Bob, and Ada's article loaded again through a listened-to database. */
async function adasArticle() {
  const ada = await Writer.create({ name: "Ada" });
  const bob = await Writer.create({ name: "Bob" });
  const article = await Article.create({ userId: ada.id, title: "t" });
  const { db, events } = listen();
  const loaded = await db.model(Article).find(article.id);
  return { ada, bob, article, db, events, loaded };
}

describe("belongsTo and hasOne", () => {
  it("post.user loads the parent once; post.author.set(record) assigns the key", async () => {
    const { bob, article, events, loaded } = await adasArticle();
    expect((await loaded.user.load())!.name).toBe("Ada");
    expect((await loaded.user.load())!.name).toBe("Ada");
    expect(events).toHaveLength(2);
    loaded.author.set(bob);
    expect(loaded.userId).toBe(bob.id);
    await loaded.save();
    expect((await Article.find(article.id)).userId).toBe(bob.id);
    expect(() => Article.build({ title: "x" }).user.get()).toThrow(/not loaded/);
  });

  it("user.profile.build() builds the child, saved with the owner", async () => {
    const writer = Writer.build({ name: "Ada" });
    const profile = writer.profile.build({ id: "p1", bio: "hi" });
    expect(profile.userId).toBe(writer.id);
    await writer.save();
    expect((await Profile.find("p1")).userId).toBe(writer.id);
    expect((await (await Writer.find(writer.id)).profile.load())!.bio).toBe("hi");
  });

  it("a child built or created through the owner gets the owner's key over one given, as in Rails; attributes must be an object", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const other = await Writer.create({ name: "Bob" });
    expect(writer.posts().build({ title: "built", userId: other.id }).userId).toBe(writer.id);
    const created = await writer.posts().create({ title: "created", userId: other.id });
    expect(created.userId).toBe(writer.id);
    expect(await other.posts().count()).toBe(0);
    expect(writer.profile.build({ id: "p1", userId: other.id }).userId).toBe(writer.id);
    expect(() => writer.profile.build(null as never)).toThrow(new TypeError("Profile.build takes a plain object of attribute values (read forms with permit), not null"));
    expect(() => writer.posts().build(null as never)).toThrow(TypeError);
  });
});

describe("belongsTo: a new parent is saved with the record, before it", () => {
  class CheckedWriter extends ApplicationRecord("users") {
    static {
      this.validates("name", { length: { minimum: 2 } });
    }
  }
  class CheckedProfile extends Profile {
    checked = belongsTo(CheckedWriter, { foreignKey: "userId" });
  }

  it("a parent with a generated key is inserted first, in the record's atomic batch", async () => {
    const { db, events } = listen();
    const profile = db.model(Profile).build({ bio: "hi" });
    const writer = Writer.build({ name: "Ada" });
    profile.user.set(writer);
    expect(await profile.save()).toBe(true);
    expect(writer.isPersisted()).toBe(true);
    expect(profile.userId).toBe(writer.id);
    expect(events.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      ['INSERT INTO "users"', true],
      ['INSERT INTO "profiles"', true],
    ]);
    expect((await Profile.find(profile.id)).userId).toBe((await Writer.find(writer.id)).id);
    expect(await profile.save()).toBe(true);
    expect(await countRows("users")).toBe(1);
  });

  it("a refused parent refuses the record's save, and nothing is written", async () => {
    const profile = CheckedProfile.build({ bio: "hi" });
    profile.checked.set(CheckedWriter.build({ name: "A" }));
    expect(await profile.save()).toBe(false);
    expect(profile.isNewRecord()).toBe(true);
    expect(profile.errors.fullMessages()).toEqual(["CheckedWriter is invalid: Name is too short"]);
    await expect(profile.saveOrThrow()).rejects.toThrow(RecordInvalid);
    expect(await countRows("users")).toBe(0);
    expect(await countRows("profiles")).toBe(0);
  });

  it("a parent whose key the database assigns is inserted first, in a round trip of its own", async () => {
    const { db, events } = listen();
    const book = db.model(Book).build({ title: "Earthsea" });
    const author = db.model(Author).build({ name: "Le Guin" });
    book.author.set(author);
    expect(book.authorId).toBe(null);
    expect(await book.save()).toBe(true);
    expect(author.id).toBeTypeOf("number");
    expect(book.authorId).toBe(author.id);
    expect(events.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      ['INSERT INTO "authors"', false],
      ['INSERT INTO "books"', false],
    ]);
  });

  it("a parent that writes the record as its child is not saved twice", async () => {
    const writer = Writer.build({ name: "Ada" });
    const article = writer.posts().build({ title: "t" });
    article.user.set(writer);
    expect(await writer.save()).toBe(true);
    expect(article.isPersisted()).toBe(true);
    expect(await countRows("users")).toBe(1);
    expect(await countRows("posts")).toBe(1);
  });
});

describe("database-assigned keys", () => {
  it("writes each level of the graph in a separate batch", async () => {
    const { db, events } = listen();
    const author = db.model(Author).build({ name: "Le Guin" });
    const book = author.books().build({ title: "The Dispossessed" });
    author.books().build({ title: "Earthsea" });
    await author.save();
    expect(author.id).toBeTypeOf("number");
    expect(book.authorId).toBe(author.id);
    expect(events.map((event) => [event.sql.split(" ").slice(0, 3).join(" "), event.batched])).toEqual([
      ["INSERT INTO \"authors\"", false],
      ["INSERT INTO \"books\"", true],
      ["INSERT INTO \"books\"", true],
    ]);
    expect((await author.books().toArray()).map((b) => b.title).sort()).toEqual(["Earthsea", "The Dispossessed"]);
    await author.destroy();
    expect(await countRows("books")).toBe(0);
  });

  it("writes all the records of one level in one batch, whatever their owners", async () => {
    class Chapter extends Model({ id: "integer", bookId: { type: "integer", null: false }, title: { type: "string", null: false } }) {
      static override tableName = "chapters";
    }
    class ChapteredBook extends Book {
      static override tableName = "books";
      chapters = hasMany(Chapter, { foreignKey: "bookId" });
    }
    class Novelist extends Author {
      static override tableName = "authors";
      novels = hasMany(ChapteredBook, { foreignKey: "authorId" });
    }
    const { binding, roundTrips } = recordingRoundTrips();
    const author = connect(binding).model(Novelist).build({ name: "Le Guin" });
    const [first, second] = [author.novels().build({ title: "A" }), author.novels().build({ title: "B" })];
    first.chapters().build({ title: "A1" });
    first.chapters().build({ title: "A2" });
    const b1 = second.chapters().build({ title: "B1" });
    expect(await author.save()).toBe(true);
    expect(roundTrips.map((trip) => trip.map((sql) => /INTO "(\w+)"/.exec(sql)![1]))).toEqual([
      ["authors"],
      ["books", "books"],
      ["chapters", "chapters", "chapters"],
    ]);
    expect(b1.bookId).toBe(second.id);
    expect(await countRows("chapters")).toBe(3);
    expect(first.isPersisted() && second.isPersisted() && b1.isPersisted()).toBe(true);
  });
});

describe("records", () => {
  it("toJSON never includes associations and printing never loads them", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const { db, events } = listen();
    const loaded = await db.model(Writer).find(writer.id);
    events.length = 0;
    expect(Object.keys(loaded.toJSON())).not.toContain("posts");
    expect(String(loaded)).not.toContain("posts");
    expect(events).toHaveLength(0);
  });
});

describe("association scopes", () => {
  class Publisher extends Writer {
    published = hasMany(Article, { foreignKey: "userId", scope: (q) => q.where({ published: true }) });
    latest = hasMany(Article, { foreignKey: "userId", scope: (q) => q.order({ createdAt: "desc" }).limit(1) });
  }

  it("narrow the children, and preload with includes in one query", async () => {
    const writer = await Publisher.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "draft" });
    await Article.create({ userId: writer.id, title: "out", published: true });
    expect(await writer.published().pluck("title")).toEqual(["out"]);
    const [loaded] = await Publisher.where({ id: writer.id }).includes("published").toArray();
    expect((await loaded!.published().toArray()).map((article) => article.title)).toEqual(["out"]);
  });

  it("a scope preloaded with limit throws IncompatibleRelation; loading it per owner works", async () => {
    const writer = await Publisher.create({ name: "Ada" });
    await Article.create({ userId: writer.id, title: "one" });
    await expect(Publisher.includes("latest").toArray()).rejects.toThrow(IncompatibleRelation);
    expect(await writer.latest().count()).toBe(1);
  });
});

describe("keys copied through an association are cast (SPEC: Casting)", () => {
  it("user.posts().build() gives the child the owner's key cast to the child's type, also when copied at save", async () => {
    const { db, events } = listen();
    const author = db.model(TextKeyedAuthor).build({ id: "12", name: "Le Guin" });
    const book = author.books().build({ title: "The Dispossessed" });
    expect(book.authorId).toBe(12);
    // The owner's key changes before the save: the save copies it again, cast.
    author.id = "13";
    expect(await author.save()).toBe(true);
    const insert = events.find((event) => event.sql.startsWith(`INSERT INTO "books"`))!;
    expect(insert.params).toContain(13);
    expect(insert.params).not.toContain("13");
    expect(book.authorId).toBe(13);
    expect(await env.DB.prepare("SELECT typeof(author_id) AS type, author_id FROM books").first()).toEqual({ type: "integer", author_id: 13 });
  });

  it("hasOne build() gives the child the owner's key cast to the child's type", () => {
    const author = TextKeyedAuthor.build({ id: "7", name: "Le Guin" });
    const book = author.firstBook.build({ title: "Earthsea" });
    expect(book.authorId).toBe(7);
  });

  it("belongsTo set(record) writes the parent's key cast to the foreign key's type", () => {
    const author = TextKeyedAuthor.build({ id: "42", name: "Le Guin" });
    const book = TextKeyedBook.build({ authorId: 1, title: "Earthsea" });
    book.author.set(author);
    expect(book.authorId).toBe(42);
    expect(book.author.get()).toBe(author);
  });

  it("belongsTo set refuses anything but a record of the target or null, leaving the key as it was", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const article = Article.build({ title: "x", userId: writer.id });
    const stranger = Author.build({ name: "Le Guin" });
    expect(() => article.user.set(stranger as never)).toThrow(new TypeError("Article.user.set takes a record of Writer or null, not [object Author]"));
    expect(() => article.author.set({ id: writer.id } as never)).toThrow(/^Article\.author\.set takes a record of Writer or null, not \{ id: "/);
    expect(() => article.user.set(undefined as never)).toThrow(new TypeError("Article.user.set takes a record of Writer or null, not undefined"));
    expect(article.userId).toBe(writer.id);
    expect(article.user.isLoaded).toBe(false);
  });
});

describe("reload() discards loaded associations", () => {
  it("a loaded hasMany queries again after reload", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const { db, events } = listen();
    const loaded = await db.model(Writer).find(writer.id);
    expect(await loaded.posts().toArray()).toHaveLength(0);
    await Article.create({ userId: writer.id, title: "late" });
    events.length = 0;
    expect(await loaded.posts().size()).toBe(0);
    expect(events).toHaveLength(0);

    await loaded.reload();
    events.length = 0;
    expect(await loaded.posts().size()).toBe(1);
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/FROM "posts"/);
  });

  it("a loaded belongsTo or hasOne is not loaded after reload, and the next load queries again", async () => {
    const { ada, bob, article, db, events, loaded } = await adasArticle();
    expect((await loaded.user.load())!.name).toBe("Ada");
    expect(loaded.user.isLoaded).toBe(true);
    await Article.where({ id: article.id }).updateAll({ userId: bob.id });

    await loaded.reload();
    expect(loaded.user.isLoaded).toBe(false);
    expect(() => loaded.user.get()).toThrow(/not loaded/);
    events.length = 0;
    expect((await loaded.user.load())!.name).toBe("Bob");
    expect(events).toHaveLength(1);
    expect(events[0]!.sql).toMatch(/FROM "users"/);

    const owner = await db.model(Writer).find(ada.id);
    expect(await owner.profile.load()).toBeNull();
    await Profile.create({ id: "p1", userId: ada.id, bio: "hi" });
    await owner.reload();
    expect(owner.profile.isLoaded).toBe(false);
    events.length = 0;
    expect((await owner.profile.load())?.bio).toBe("hi");
    expect(events).toHaveLength(1);
  });
});

describe("a key copied between Models is cast as a condition is", () => {
  // Kennels have integer keys the database assigns; dogs hold them in a text column.
  class Dog extends ApplicationRecord({ id: { type: "string", generateId: true }, kennelId: "string", name: "string" }) {
    static override tableName = "dogs";
    kennel = belongsTo(Kennel);
  }
  class Kennel extends ApplicationRecord({ id: "integer", name: "string" }) {
    static override tableName = "kennels";
    dogs = hasMany(Dog);
    dog = hasOne(Dog);
  }

  it("hasMany and hasOne build the child with the owner's integer key as its digits", async () => {
    const kennel = await Kennel.create({ name: "North" });
    expect(kennel.dogs().build({ name: "Rex" }).kennelId).toBe(String(kennel.id));
    const only = kennel.dog.build({ name: "Fido" });
    expect(only.kennelId).toBe(String(kennel.id));
    expect(await kennel.save()).toBe(true);
    expect(await Dog.where({ kennelId: kennel.id }).pluck("name")).toEqual(expect.arrayContaining(["Rex", "Fido"]));
  });

  it("belongsTo.set takes a saved or a new parent's key as its digits", async () => {
    const kennel = await Kennel.create({ name: "North" });
    const rex = Dog.build({ name: "Rex" });
    rex.kennel.set(kennel);
    expect(rex.kennelId).toBe(String(kennel.id));
    const fido = Dog.build({ name: "Fido" });
    fido.kennel.set(Kennel.build({ name: "South" }));
    expect(await fido.save()).toBe(true);
    const south = await Kennel.findByOrThrow({ name: "South" });
    expect(fido.kennelId).toBe(String(south.id));
  });

  it("children of a new owner take its database-assigned key after its insert", async () => {
    const kennel = Kennel.build({ name: "North" });
    const rex = kennel.dogs().build({ name: "Rex" });
    expect(await kennel.save()).toBe(true);
    expect(rex.isPersisted()).toBe(true);
    expect(rex.kennelId).toBe(String(kennel.id));
  });

  it("create through a new owner's association is refused, as in Rails: the child's row would point at no owner row", async () => {
    const kennel = Kennel.build({ name: "North" });
    await expect(kennel.dogs().create({ name: "Rex" })).rejects.toThrow(
      new RecordNotSaved("Kennel.dogs.create: the Kennel is not saved yet; save it first, or build the child with build (its save writes both)"),
    );
    await expect(kennel.dogs().createOrThrow({ name: "Rex" })).rejects.toThrow(/^Kennel\.dogs\.createOrThrow: the Kennel is not saved yet/);
    expect(await Dog.count()).toBe(0);
    // Built instead, the child is written with the owner's save; once the owner is saved, create writes at once.
    kennel.dogs().build({ name: "Rex" });
    expect(await kennel.save()).toBe(true);
    const fido = await kennel.dogs().create({ name: "Fido" });
    expect(fido.isPersisted()).toBe(true);
    expect(await Dog.where({ kennelId: kennel.id }).order({ name: "asc" }).pluck("name")).toEqual(["Fido", "Rex"]);
  });

  it("includes matches the integer key with the text one, both ways", async () => {
    const kennel = await Kennel.create({ name: "North" });
    await kennel.dogs().create({ name: "Rex" });
    const [loaded] = await Kennel.where({ id: kennel.id }).includes("dogs").toArray();
    expect(await loaded!.dogs().size()).toBe(1);
    const [dog] = await Dog.includes("kennel").toArray();
    expect(dog!.kennel.get()?.name).toBe("North");
  });
});

const log: string[] = [];

beforeEach(() => {
  log.length = 0;
});

describe("Associations", () => {
  it("the default foreign key of a Model({...}) class is its name in camelCase plus Id", async () => {
    const owner = await SaaOwner.create({ name: "Ada" });
    const item = owner.items().build({ title: "one" });
    expect(item.saaOwnerId).toBe(owner.id);
    expect(owner.items().toSql().sql).toContain(`"saa_owner_id" = ?1`);
  });

  it("a child built on a persisted owner is saved by the owner's next save, in one batch with the owner's update", async () => {
    const owner = await SaaOwner.create({ name: "Ada" });
    const { db, events } = listen();
    const bound = await db.model(SaaOwner).find(owner.id);
    events.length = 0;
    bound.items().build({ title: "one" });
    expect(await bound.save()).toBe(true);
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT"]);
    bound.items().build({ title: "two" });
    bound.name = "Bob";
    events.length = 0;
    expect(await bound.save()).toBe(true);
    expect(events.map((event) => [event.sql.split(" ")[0], event.batched])).toEqual([
      ["UPDATE", true],
      ["INSERT", true],
    ]);
    events.length = 0;
    expect(await bound.save()).toBe(true);
    expect(events).toHaveLength(0);
    expect(await countRows("saa_items")).toBe(2);
  });

  it("foreignKey names the child's attribute for finding and building", async () => {
    class Keeper extends SaaOwner {
      kept = hasMany(SaaItem, { foreignKey: "keeperId" });
    }
    const keeper = Keeper.build({ name: "K" });
    const item = keeper.kept().build({ title: "kept" });
    expect(item.keeperId).toBe(keeper.id);
    expect(item.saaOwnerId).toBeNull();
    expect(await keeper.save()).toBe(true);
    expect((await keeper.kept().toArray()).map((row) => row.title)).toEqual(["kept"]);
  });

  it("hasOne build is saved with a new owner in one batch; a failing child insert writes nothing", async () => {
    class Single extends SaaOwner {
      item = hasOne(SaaItem);
    }
    const { db, events } = listen();
    const owner = db.model(Single).build({ name: "A" });
    owner.item.build({ title: "x" });
    expect(await owner.save()).toBe(true);
    expect(events.map((event) => event.batched)).toEqual([true, true]);
    const other = Single.build({ name: "B" });
    other.item.build({ title: null as unknown as string });
    await expect(other.save()).rejects.toThrow(/NOT NULL/);
    expect(await countRows("saa_owners")).toBe(1);
  });
});

const I = OwnedItem as any;

const O = ItemOwner as any;

describe("hasMany: 'user.posts().build(attrs) builds a child that is saved with its owner'", () => {
  it("a child built before the children are loaded is among them once loaded, and counted, as in Rails", async () => {
    await seedOwnedItemsSeen();
    const owner = await O.find("o1");
    const child = owner.items().build({ name: "new", code: "N" });
    expect(await owner.items().size()).toBe(3);
    const loaded = await owner.items().toArray();
    expect(loaded).toHaveLength(3);
    expect(loaded).toContain(child);
    expect(await owner.items().size()).toBe(3);
    expect(await owner.save()).toBe(true);
    expect(await I.where({ ownerId: "o1" }).count()).toBe(3);
  });
});

/** Articles with a scope, and a writer whose `articles` are those (for narrowings by where, scopes, merge, or). */
class ScopedArticle extends Article {
  static published = this.scope((q) => q.where({ published: true }));
}
class ScopedWriter extends Writer {
  articles = hasMany(ScopedArticle, { foreignKey: "userId" });
}

/** Each way this library narrows a Relation, applied to a writer's articles. */
const NARROWINGS: ReadonlyArray<[string, (articles: any) => any]> = [
  ["where", (articles) => articles.where({ published: true })],
  ["whereNot", (articles) => articles.whereNot({ title: "other" })],
  ["order and limit", (articles) => articles.order({ title: "asc" }).limit(2).offset(1)],
  ["a scope", (articles) => articles.published()],
  ["merge", (articles) => articles.merge(ScopedArticle.where({ published: true }))],
  ["or", (articles) => articles.where({ title: "a" }).or(articles.where({ title: "b" }))],
  ["or with a Relation of the Model", (articles) => articles.or(ScopedArticle.where({ title: "b" }))],
  ["select, distinct, includes", (articles) => articles.select("title").distinct().includes("author")],
  ["none", (articles) => articles.none()],
];

describe("a Relation narrowed from a hasMany builds and creates through it, as Rails' AssociationRelation", () => {
  it("build, on every narrowing: a child of the new owner, with the narrowing's equalities, written by its save in ONE batch", async () => {
    const { db, events } = listen();
    const writer = db.model(ScopedWriter).build({ name: "Ada" });
    const built = NARROWINGS.map(([, narrow]) => narrow(writer.articles()).build({ title: "t" }));
    expect(built.map((child) => child.userId)).toEqual(NARROWINGS.map(() => writer.id));
    expect([built[0].published, built[3].published, built[4].published]).toEqual([true, true, true]);
    expect(await writer.articles().size()).toBe(NARROWINGS.length);
    events.length = 0;
    expect(await writer.save()).toBe(true);
    expect(events).toHaveLength(1 + NARROWINGS.length);
    expect(events.every((event) => event.batched)).toBe(true);
    expect(built.every((child) => child.isPersisted())).toBe(true);
    expect(await ScopedArticle.where({ userId: writer.id, published: true }).count()).toBe(3);
  });

  it("on a saved owner whose children are loaded: build joins them and waits for its save; create joins them at one INSERT", async () => {
    const { db, events } = listen();
    const writer = await db.model(ScopedWriter).create({ name: "Ada" });
    await writer.articles().toArray();
    const built = (writer.articles() as any).published().build({ title: "built" });
    const created = await writer.articles().where({ published: true }).create({ title: "created" });
    events.length = 0;
    const thrown = await writer.articles().order({ title: "asc" }).createOrThrow({ title: "thrown" });
    expect(events.map((event) => event.sql.split(" ")[0])).toEqual(["INSERT"]);
    expect(await writer.articles().toArray()).toEqual([built, created, thrown]);
    expect([built.isNewRecord(), created.isPersisted(), created.published, thrown.userId]).toEqual([true, true, true, writer.id]);
    expect(await writer.save()).toBe(true);
    expect(built.isPersisted()).toBe(true);
    expect(await ScopedArticle.where({ userId: writer.id, published: true }).pluck("title")).toEqual(expect.arrayContaining(["built", "created"]));
  });

  it("create and createOrThrow on a narrowed Relation of a new owner are refused as the un-narrowed forms are; nothing is written", async () => {
    const writer = ScopedWriter.build({ name: "Ada" });
    for (const [, narrow] of NARROWINGS) {
      await expect(narrow(writer.articles()).create({ title: "c" })).rejects.toThrow(
        new RecordNotSaved("ScopedWriter.articles.create: the ScopedWriter is not saved yet; save it first, or build the child with build (its save writes both)"),
      );
      await expect(narrow(writer.articles()).createOrThrow({ title: "c" })).rejects.toThrow(/^ScopedWriter\.articles\.createOrThrow: the ScopedWriter is not saved yet/);
    }
    expect(await writer.articles().size()).toBe(0);
    expect(await countRows("posts")).toBe(0);
  });

  it("attributes given win over the narrowing's, and are checked as the un-narrowed build checks them", async () => {
    const writer = await ScopedWriter.create({ name: "Ada" });
    const narrowed = writer.articles().where({ published: true, title: "narrowed" });
    expect(narrowed.build({ published: false }).published).toBe(false);
    expect(narrowed.build().title).toBe("narrowed");
    expect(() => narrowed.build("title" as never)).toThrow(/^ScopedArticle\.build takes a plain object/);
    expect(() => (narrowed.build as (...args: unknown[]) => unknown)({}, {})).toThrow(/^ScopedWriter\.articles\.build/);
    // The other writer's articles, or any Relation of the Model, still build records of no owner.
    expect(ScopedArticle.where({ userId: writer.id }).build().isNewRecord()).toBe(true);
    expect(await writer.articles().size()).toBe(2);
  });
});

class Kid extends Model({ id: { type: "string", null: false }, ownerId: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_children";
}

class Owner extends Model({ id: { type: "string", null: false }, name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_q_owners";
  kids = hasMany(Kid, { dependent: "destroy" });
  onlyKid = hasOne(Kid);
}

/** Items whose foreign key is filtered (its name has "secret"), and their owner with no association. */
class SecretItem extends Model({ id: "string", secretVaultId: "string", label: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_r_secret_items";
}

class PlainVault extends Model({ id: "string", name: "string" }) {
  static override binding = "DB";
  static override tableName = "audit_r_vaults";
}

// ----------------------------------------------------------------------------------------------------------

describe("Querying, Bulk writes, Callbacks, Associations: edge cases", () => {

  it("a persisted, unchanged owner's save writes a child built through hasMany", async () => {
    const owner = await Owner.create({ id: "o1", name: "a" });
    owner.kids().build({ id: "k1", name: "kid" });
    expect(await owner.save()).toBe(true);
    expect(await countRows("audit_q_children")).toBe(1);
  });
});

describe("edge cases that hold", () => {

  it("an association declared on a subclass never reaches its parent", async () => {
    class RichVault extends PlainVault {
      items = hasMany(SecretItem, { foreignKey: "secretVaultId" });
    }
    await PlainVault.create({ name: "v" });
    expect((await RichVault.includes("items").toArray()).length).toBe(1);
    const error = await thrown(() => PlainVault.includes("items" as never).toArray());
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain("items is not an association of PlainVault");
  });
});

describe("an argument an association's method does not take is refused, never read as nothing", () => {
  it("each method of hasMany, hasOne, belongsTo and their through forms names itself and sends nothing", async () => {
    const writer = await Writer.create({ name: "Ada" });
    const article = await Article.create({ userId: writer.id, title: "t" });
    const post = await ThrPost.create({ title: "p" });
    const { db, events } = listen();
    const [w, a, p] = [await db.model(Writer).find(writer.id), await db.model(Article).find(article.id), await db.model(ThrPost).find(post.id)] as any[];
    events.length = 0;
    const cases: [string, () => unknown, string][] = [
      ["build", () => w.posts().build({ title: "x" }, { title: "y" }), "Writer.posts.build takes one argument, not 2"],
      ["toArray", () => w.posts().toArray({ limit: 1 }), "Writer.posts.toArray takes no argument"],
      ["size", () => w.posts().size("title"), "Writer.posts.size takes no argument"],
      ["isEmpty", () => w.posts().isEmpty({}), "Writer.posts.isEmpty takes no argument"],
      ["hasAny", () => w.posts().hasAny({}), "Writer.posts.hasAny takes no argument"],
      ["set", () => w.posts().set([], []), "Writer.posts.set takes one argument, not 2"],
      ["setIds", () => w.posts().setIds([], []), "Writer.posts.setIds takes one argument, not 2"],
      ["hasOne build", () => w.profile.build({ bio: "a" }, { bio: "b" }), "Writer.profile.build takes one argument, not 2"],
      ["hasOne load", () => w.profile.load({ lock: true }), "Writer.profile.load takes no argument"],
      ["belongsTo get", () => a.author.get(true), "Article.author.get takes no argument"],
      ["belongsTo reload", () => a.author.reload({}), "Article.author.reload takes no argument"],
      ["belongsTo set", () => a.author.set(null, w), "Article.author.set takes one argument, not 2"],
      ["through toArray", () => p.thrTags().toArray({}), "ThrPost.thrTags.toArray takes no argument"],
      ["through size", () => p.thrTags().size(1), "ThrPost.thrTags.size takes no argument"],
      ["through isEmpty", () => p.thrTags().isEmpty(1), "ThrPost.thrTags.isEmpty takes no argument"],
      ["through hasAny", () => p.thrTags().hasAny(1), "ThrPost.thrTags.hasAny takes no argument"],
      ["through set", () => p.thrTags().set([], []), "ThrPost.thrTags.set takes one argument, not 2"],
      ["through setIds", () => p.thrTags().setIds([], []), "ThrPost.thrTags.setIds takes one argument, not 2"],
      ["through build", () => p.thrTags().build({ name: "a" }, {}), "ThrPost.thrTags.build takes one argument, not 2"],
      ["through hasOne set", () => p.thrBio.set(null, null), "ThrPost.thrBio.set takes one argument, not 2"],
      ["reloadAssociation", () => w.reloadAssociation("posts", { force: true }), "Writer.reloadAssociation takes one argument, not 2"],
      ["asJson", () => w.asJson({ include: "posts" }, {}), "Writer.asJson takes one argument, not 2"],
    ];
    for (const [name, call, message] of cases) {
      const error = await thrown(call);
      expect(error, name).toBeInstanceOf(TypeError);
      expect((error as Error).message, name).toBe(message);
    }
    expect(events).toEqual([]);
    expect(a.userId).toBe(writer.id);
  });
});
