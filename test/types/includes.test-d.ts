import { Article, Writer } from "../models/association-fixtures.js";

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
