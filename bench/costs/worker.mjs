/**
 * The cost bench Worker: each scenario a blog app meets every day, run by recordflare, by Drizzle's relational
 * queries, and by hand-written D1 calls in the fewest round trips D1 allows (the minimum), each on freshly seeded
 * data, counted by a binding that sees every round trip and D1's rows read and written.
 *   POST /run { scenario, impl }  -> { roundTrips, statements, rowsRead, rowsWritten, answer }
 */
import { connect } from "../../dist/index.mjs";
import { drizzle } from "drizzle-orm/d1";
import { count, desc, eq, inArray } from "drizzle-orm";
import { countingD1 } from "./counting-d1.mjs";
import * as blog from "./drizzle-schema.mjs";
import { Comment, Post, Remark, User } from "./recordflare-models.mjs";
import { BLOG_SCHEMA, TABLES } from "./schema.mjs";

const USERS = 5_000;
const POSTS = 200;
const COMMENTS_PER_POST = 2;
const DELETED_POSTS = 30;
const PHOTOS = 50;
const REMARKS = 100;
const TAGS = 20;
const TAGS_PER_POST = 3;
const now = "2026-11-25T00:00:00.000Z";

/**
 * Seeds 5,000 users, 200 posts with 2 comments each (spread over authors), one user with 30 posts of 2 comments, and
 * 50 photos with 100 remarks, every other one on a post, the others on a photo; 20 tags, 3 on each post. Posts keep
 * their comment count.
 */
async function seed(d1) {
  for (const table of TABLES) await d1.prepare(`DROP TABLE IF EXISTS ${table}`).run();
  for (const statement of BLOG_SCHEMA) await d1.prepare(statement).run();
  const users = Array.from({ length: USERS }, (_, i) => [`u-${i}`, `User ${i}`, `user${i}@example.com`]);
  const posts = Array.from({ length: POSTS }, (_, i) => [`p-${i}`, `u-${(i * 7) % USERS}`, `Post ${i}`, new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString()]);
  for (let i = 0; i < DELETED_POSTS; i++) posts.push([`dp-${i}`, "u-doomed", `Doomed ${i}`, new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString()]);
  users.push(["u-doomed", "Doomed", "doomed@example.com"]);
  const comments = posts.flatMap(([postId], p) => Array.from({ length: COMMENTS_PER_POST }, (_, c) => [`c-${p}-${c}`, postId, `u-${(p + c) % USERS}`, `Comment ${c}`]));
  const photos = Array.from({ length: PHOTOS }, (_, i) => [`ph-${i}`, `Photo ${i}`]);
  const tags = Array.from({ length: TAGS }, (_, i) => [`t-${i}`, `tag${i}`]);
  const taggings = posts.flatMap(([postId], p) => Array.from({ length: TAGS_PER_POST }, (_, t) => [`tg-${p}-${t}`, postId, `t-${(p + t * 7) % TAGS}`]));
  const remarks = Array.from({ length: REMARKS }, (_, i) => [`r-${i}`, i % 2 === 0 ? "Post" : "Photo", i % 2 === 0 ? `p-${i}` : `ph-${i % PHOTOS}`, `Remark ${i}`, new Date(Date.UTC(2026, 1, 1, 0, i)).toISOString()]);
  await d1.batch([
    d1.prepare(`INSERT INTO photos SELECT value->>0, value->>1, '${now}', '${now}' FROM json_each(?)`).bind(JSON.stringify(photos)),
    d1.prepare(`INSERT INTO remarks SELECT value->>0, value->>1, value->>2, value->>3, value->>4, value->>4 FROM json_each(?)`).bind(JSON.stringify(remarks)),
    d1.prepare(`INSERT INTO users SELECT value->>0, value->>1, value->>2, '${now}', '${now}' FROM json_each(?)`).bind(JSON.stringify(users)),
    d1.prepare(`INSERT INTO posts SELECT value->>0, value->>1, value->>2, ${COMMENTS_PER_POST}, value->>3, value->>3 FROM json_each(?)`).bind(JSON.stringify(posts)),
    d1.prepare(`INSERT INTO comments SELECT value->>0, value->>1, value->>2, value->>3, '${now}', '${now}' FROM json_each(?)`).bind(JSON.stringify(comments)),
    d1.prepare(`INSERT INTO tags SELECT value->>0, value->>1, '${now}', '${now}' FROM json_each(?)`).bind(JSON.stringify(tags)),
    d1.prepare(`INSERT INTO taggings SELECT value->>0, value->>1, value->>2, '${now}', '${now}' FROM json_each(?)`).bind(JSON.stringify(taggings)),
  ]);
}

const LATEST = 25;

/** What a tagged-posts page shows of each post: its title, its comment count and its tags, by name. */
const taggedLine = (title, commentsCount, tagNames) => `${title} (${commentsCount} comments): ${[...tagNames].sort().join(", ")}`;

/** What a remarks page shows of each remark: its text and the title or caption of what it is on. */
const remarkLine = (body, parent) => `${body} on ${parent.title ?? parent.caption}`;

const recordflare = {
  async postPage(db) {
    const post = await db.model(Post).includes("user", "comments").find("p-7");
    return { title: post.title, author: post.user.get().name, comments: (await post.comments().toArray()).length };
  },
  async latestPosts(db) {
    const posts = await db.model(Post).includes("user").order({ createdAt: "desc" }).limit(LATEST).toArray();
    return posts.map((post) => `${post.title} by ${post.user.get().name}`);
  },
  async postsPage(db) {
    const page = await db.model(Post).includes("user").order({ createdAt: "desc" }).paginate({ page: 2, perPage: LATEST });
    return { total: page.total, titles: page.records.map((post) => `${post.title} by ${post.user.get().name}`) };
  },
  async taggedPostsPage(db) {
    const page = await db.model(Post).includes("tags").order({ createdAt: "desc" }).paginate({ page: 2, perPage: LATEST });
    const lines = await Promise.all(page.records.map(async (post) => taggedLine(post.title, await post.comments().size(), (await post.tags().toArray()).map((tag) => tag.name))));
    return { total: page.total, lines };
  },
  async remarksPage(db) {
    const remarks = await db.model(Remark).includes("remarkable").order({ createdAt: "desc" }).limit(LATEST).toArray();
    return remarks.map((remark) => remarkLine(remark.body, remark.remarkable.get()));
  },
  async deleteUser(db) {
    const user = await db.model(User).find("u-doomed");
    return (await user.destroy()) !== false;
  },
  async signup(db) {
    const user = await db.model(User).create({ name: "New", email: "new@example.com" });
    return user.isPersisted();
  },
};

const drizzleQueries = {
  async postPage(db) {
    const post = await db.query.posts.findFirst({ where: eq(blog.posts.id, "p-7"), with: { user: true, comments: true } });
    return { title: post.title, author: post.user.name, comments: post.comments.length };
  },
  async latestPosts(db) {
    const posts = await db.query.posts.findMany({ orderBy: desc(blog.posts.createdAt), limit: LATEST, with: { user: true } });
    return posts.map((post) => `${post.title} by ${post.user.name}`);
  },
  async postsPage(db) {
    const [[{ total }], posts] = await db.batch([
      db.select({ total: count() }).from(blog.posts),
      db.query.posts.findMany({ orderBy: desc(blog.posts.createdAt), limit: LATEST, offset: LATEST, with: { user: true } }),
    ]);
    return { total, titles: posts.map((post) => `${post.title} by ${post.user.name}`) };
  },
  async taggedPostsPage(db) {
    const [[{ total }], posts] = await db.batch([
      db.select({ total: count() }).from(blog.posts),
      db.query.posts.findMany({ orderBy: desc(blog.posts.createdAt), limit: LATEST, offset: LATEST, with: { taggings: { with: { tag: true } } } }),
    ]);
    return { total, lines: posts.map((post) => taggedLine(post.title, post.commentsCount, post.taggings.map((tagging) => tagging.tag.name))) };
  },
  async remarksPage(db) {
    const remarks = await db.select().from(blog.remarks).orderBy(desc(blog.remarks.createdAt)).limit(LATEST);
    const keysOf = (type) => remarks.filter((remark) => remark.remarkableType === type).map((remark) => remark.remarkableId);
    const [posts, photos] = await db.batch([
      db.select().from(blog.posts).where(inArray(blog.posts.id, keysOf("Post"))),
      db.select().from(blog.photos).where(inArray(blog.photos.id, keysOf("Photo"))),
    ]);
    const parents = new Map([...posts.map((post) => [`Post ${post.id}`, post]), ...photos.map((photo) => [`Photo ${photo.id}`, photo])]);
    return remarks.map((remark) => remarkLine(remark.body, parents.get(`${remark.remarkableType} ${remark.remarkableId}`)));
  },
  async deleteUser(db) {
    // Set-based deletes in one batch: what a Drizzle user writes by hand (no callbacks, no dependents declared; the
    // posts' comment counts need no update, since the user's posts go too).
    const postIds = db.select({ id: blog.posts.id }).from(blog.posts).where(eq(blog.posts.userId, "u-doomed"));
    await db.batch([
      db.delete(blog.comments).where(inArray(blog.comments.postId, postIds)),
      db.delete(blog.taggings).where(inArray(blog.taggings.postId, postIds)),
      db.delete(blog.posts).where(eq(blog.posts.userId, "u-doomed")),
      db.delete(blog.users).where(eq(blog.users.id, "u-doomed")),
    ]);
    return true;
  },
  async signup(db) {
    await db.insert(blog.users).values({ id: crypto.randomUUID(), name: "New", email: "new@example.com", createdAt: now, updatedAt: now });
    return true;
  },
};

/** The fewest round trips D1 allows, written by hand: one batch each, keyed subqueries instead of a second trip. */
const minimum = {
  async postPage(d1) {
    const [post, user, comments] = await d1.batch([
      d1.prepare("SELECT * FROM posts WHERE id = ?").bind("p-7"),
      d1.prepare("SELECT * FROM users WHERE id = (SELECT user_id FROM posts WHERE id = ?)").bind("p-7"),
      d1.prepare("SELECT * FROM comments WHERE post_id = ?").bind("p-7"),
    ]);
    return { title: post.results[0].title, author: user.results[0].name, comments: comments.results.length };
  },
  async latestPosts(d1) {
    const page = `SELECT * FROM posts ORDER BY created_at DESC LIMIT ${LATEST}`;
    const [posts, users] = await d1.batch([d1.prepare(page), d1.prepare(`SELECT * FROM users WHERE id IN (SELECT user_id FROM (${page}))`)]);
    const byId = new Map(users.results.map((user) => [user.id, user]));
    return posts.results.map((post) => `${post.title} by ${byId.get(post.user_id).name}`);
  },
  async postsPage(d1) {
    const page = `SELECT * FROM posts ORDER BY created_at DESC LIMIT ${LATEST} OFFSET ${LATEST}`;
    const [total, posts, users] = await d1.batch([
      d1.prepare("SELECT COUNT(*) AS total FROM posts"),
      d1.prepare(page),
      d1.prepare(`SELECT * FROM users WHERE id IN (SELECT user_id FROM (${page}))`),
    ]);
    const byId = new Map(users.results.map((user) => [user.id, user]));
    return { total: total.results[0].total, titles: posts.results.map((post) => `${post.title} by ${byId.get(post.user_id).name}`) };
  },
  async taggedPostsPage(d1) {
    const page = `SELECT * FROM posts ORDER BY created_at DESC LIMIT ${LATEST} OFFSET ${LATEST}`;
    const [total, posts, tags] = await d1.batch([
      d1.prepare("SELECT COUNT(*) AS total FROM posts"),
      d1.prepare(page),
      d1.prepare(`SELECT taggings.post_id, tags.name FROM taggings JOIN tags ON tags.id = taggings.tag_id WHERE taggings.post_id IN (SELECT id FROM (${page}))`),
    ]);
    const namesOf = (postId) => tags.results.filter((row) => row.post_id === postId).map((row) => row.name);
    return { total: total.results[0].total, lines: posts.results.map((post) => taggedLine(post.title, post.comments_count, namesOf(post.id))) };
  },
  async remarksPage(d1) {
    const page = `SELECT * FROM remarks ORDER BY created_at DESC LIMIT ${LATEST}`;
    const [remarks, posts, photos] = await d1.batch([
      d1.prepare(page),
      d1.prepare(`SELECT * FROM posts WHERE id IN (SELECT remarkable_id FROM (${page}) WHERE remarkable_type = ?)`).bind("Post"),
      d1.prepare(`SELECT * FROM photos WHERE id IN (SELECT remarkable_id FROM (${page}) WHERE remarkable_type = ?)`).bind("Photo"),
    ]);
    const parents = new Map([...posts.results.map((post) => [`Post ${post.id}`, post]), ...photos.results.map((photo) => [`Photo ${photo.id}`, photo])]);
    return remarks.results.map((remark) => remarkLine(remark.body, parents.get(`${remark.remarkable_type} ${remark.remarkable_id}`)));
  },
  async deleteUser(d1) {
    await d1.batch([
      d1.prepare("DELETE FROM comments WHERE post_id IN (SELECT id FROM posts WHERE user_id = ?)").bind("u-doomed"),
      d1.prepare("DELETE FROM taggings WHERE post_id IN (SELECT id FROM posts WHERE user_id = ?)").bind("u-doomed"),
      d1.prepare("DELETE FROM posts WHERE user_id = ?").bind("u-doomed"),
      d1.prepare("DELETE FROM users WHERE id = ?").bind("u-doomed"),
    ]);
    return true;
  },
  async signup(d1) {
    await d1.prepare("INSERT INTO users VALUES (?, ?, ?, ?, ?)").bind(crypto.randomUUID(), "New", "new@example.com", now, now).run();
    return true;
  },
};

const IMPLEMENTATIONS = {
  recordflare: (binding) => ({ subject: connect(binding), scenarios: recordflare }),
  drizzle: (binding) => ({ subject: drizzle(binding, { schema: blog }), scenarios: drizzleQueries }),
  minimum: (binding) => ({ subject: binding, scenarios: minimum }),
};

/** What the scenario left in the tables, so that the implementations can be checked to do the same work. */
async function tableCounts(d1) {
  const counts = {};
  for (const table of TABLES) counts[table] = (await d1.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first()).n;
  return counts;
}

export default {
  async fetch(request, env) {
    try {
      const { scenario, impl } = await request.json();
      await seed(env.DB);
      const { binding, cost } = countingD1(env.DB);
      const { subject, scenarios } = IMPLEMENTATIONS[impl](binding);
      const answer = await scenarios[scenario](subject);
      return Response.json({ ...cost, answer, tables: await tableCounts(env.DB) });
    } catch (error) {
      return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
    }
  },
};
