import { batch } from "recordflare";
import { User } from "./models/user.js";

const HOUR = 3_600_000;

const POSTS = [
  ["Hello, D1", "A first post, written when the database was new."],
  ["Why Active Record", "Records that know how to save themselves, validate themselves and find their friends."],
  ["Batches are atomic", "Saving a post with its comments is one batch: all of it, or none of it."],
  ["Reading your own writes", "D1 sessions and bookmarks keep a visitor's reads after their writes."],
  ["Pagination in one round trip", "The count and the page go to D1 in one batch."],
  ["Scopes", "Named queries such as published and recent, chained like any other."],
  ["Preloading", "includes() loads a page's authors with one more query, never one per row."],
  ["Validations", "Leave the title empty and see what happens."],
  ["Filtered parameters", "Emails are shown as [FILTERED] in the SQL panel below."],
  ["Dependents", "Destroying a post destroys its comments in the same batch."],
  ["Timestamps", "created_at and updated_at are set for you."],
  ["A draft", "Not published yet."],
] as const;

/** Whether this isolate has seen users in the database: then it never asks again. */
let seeded = false;

/** Demo data, written once when there are no users: three authors, their posts, and a few comments. */
export async function seedIfEmpty(): Promise<void> {
  if (seeded) return;
  if (await User.all().hasAny()) {
    seeded = true;
    return;
  }
  const authors = [
    User.build({ name: "Ada Lovelace", email: "ada@example.com" }),
    User.build({ name: "Grace Hopper", email: "grace@example.com" }),
    User.build({ name: "Alan Turing", email: "alan@example.com" }),
  ];
  // The authors first, so that a comment's author exists whatever the order of the inserts after.
  await batch(authors.map((author) => author.toSave()));
  POSTS.forEach(([title, body], index) => {
    const author = authors[index % authors.length]!;
    const at = new Date(Date.now() - (POSTS.length - index) * 7 * HOUR);
    const post = author.posts().build({ title, body, published: index !== POSTS.length - 1, createdAt: at, updatedAt: at });
    const commenter = authors[(index + 1) % authors.length]!;
    if (index % 2 === 0) post.comments().build({ body: `Nice one, ${author.name.split(" ")[0]}!`, userId: commenter.id, createdAt: at, updatedAt: at });
  });
  // Keys are generated in code, so the posts and their comments go in one atomic batch.
  await batch(authors.map((author) => author.toSave()));
  seeded = true;
}
