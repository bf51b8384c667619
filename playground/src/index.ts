// The playground: a small blog (users, posts, comments) on recordflare, Hono and local D1. Every page ends with the
// SQL its request sent, from `onQuery` events.
import { Hono, type Context } from "hono";
import { RecordNotFound } from "recordflare";
import { d1, type D1Variables } from "recordflare/hono";
import { Comment } from "./models/comment.js";
import { Post } from "./models/post.js";
import { User } from "./models/user.js";
import { QueryLog } from "./query-log.js";
import { RedirectLogs } from "./redirect-logs.js";
import { seedIfEmpty } from "./seed.js";
import { layout } from "./views/layout.js";
import { postForm, postList, postPage, SCOPES, type ScopeName } from "./views/posts.js";

type App = { Bindings: { DB: D1Database }; Variables: D1Variables & { log: QueryLog } };

const app = new Hono<App>();

// The log of a request that answered with a redirect, shown on the page it led to, for that visitor only.
const redirectLogs = new RedirectLogs();

// Each request has its own database (and D1 session): its queries go to this request's log.
app.use(d1());
app.use(async (c, next) => {
  const log = new QueryLog(`${c.req.method} ${new URL(c.req.url).pathname}`);
  c.var.db.onQuery(log.record);
  c.set("log", log);
  await seedIfEmpty();
  await next();
});

function render(c: Context<App>, title: string, content: Parameters<typeof layout>[1], status: 200 | 422 | 404 = 200) {
  const redirected = redirectLogs.take(c);
  const logs = redirected ? [redirected, c.var.log] : [c.var.log];
  return c.html(layout(title, content, logs), status);
}

function redirect(c: Context<App>, path: string) {
  redirectLogs.keep(c, c.var.log);
  return c.redirect(path, 303);
}

const PERMITTED = ["title", "body", "published", "userId"] as const;

app.get("/", (c) => c.redirect("/posts"));

app.get("/posts", async (c) => {
  const requested = c.req.query("scope") ?? "all";
  const scope: ScopeName = (SCOPES as readonly string[]).includes(requested) ? (requested as ScopeName) : "all";
  const posts = scope === "published" ? Post.published() : scope === "drafts" ? Post.drafts() : Post.all();
  const page = await posts.recent().includes("user").paginate({ page: c.req.query("page"), perPage: 5 });
  return render(c, "Posts", postList(page, scope));
});

app.get("/posts/new", async (c) => {
  const users = await User.order({ name: "asc" }).toArray();
  return render(c, "New post", postForm(Post.build({ userId: users[0]?.id }), users));
});

app.post("/posts", async (c) => {
  const post = Post.build(Post.permit(await c.req.formData(), ...PERMITTED));
  if (await post.save()) return redirect(c, `/posts/${post.id}`);
  return render(c, "New post", postForm(post, await User.order({ name: "asc" }).toArray()), 422);
});

app.get("/posts/:file{[^/]+\\.json}", async (c) => {
  const id = c.req.param("file").slice(0, -".json".length);
  const post = await Post.includes("user", "comments").where({ id }).first();
  if (!post) throw new RecordNotFound(`Couldn't find Post with id ${id}`);
  // toJSON() never includes associations; asJson nests the ones preloaded above.
  return c.json(post.asJson({ include: ["user", "comments"] }));
});

async function showPost(c: Context<App>, id: string, commentErrors: string[] = [], commentBody = "") {
  const post = await Post.includes("user").where({ id }).first();
  if (!post) return render(c, "Not found", "No such post.", 404);
  const comments = await Comment.includes("user").where({ postId: id }).order({ createdAt: "asc" }).toArray();
  const users = await User.order({ name: "asc" }).toArray();
  return render(c, post.title, postPage(post, comments, users, commentErrors, commentBody), commentErrors.length ? 422 : 200);
}

app.get("/posts/:id", (c) => showPost(c, c.req.param("id")));

app.get("/posts/:id/edit", async (c) => {
  const post = await Post.find(c.req.param("id"));
  return render(c, "Edit post", postForm(post, await User.order({ name: "asc" }).toArray()));
});

app.post("/posts/:id", async (c) => {
  const post = await Post.find(c.req.param("id"));
  if (await post.update(Post.permit(await c.req.formData(), ...PERMITTED))) return redirect(c, `/posts/${post.id}`);
  return render(c, "Edit post", postForm(post, await User.order({ name: "asc" }).toArray()), 422);
});

app.post("/posts/:id/delete", async (c) => {
  const post = await Post.find(c.req.param("id"));
  await post.destroyOrThrow(); // its comments go in the same batch (dependent: "destroy")
  return redirect(c, "/posts");
});

app.post("/posts/:id/comments", async (c) => {
  const id = c.req.param("id");
  const form = await c.req.formData();
  const comment = await Comment.create({ ...Comment.permit(form, "body", "userId"), postId: id });
  if (comment.isPersisted()) return redirect(c, `/posts/${id}`);
  return showPost(c, id, comment.errors.fullMessages(), String(form.get("body") ?? ""));
});

app.onError((error, c) => {
  // A missing record is a 404; request input that does not cast (a TypeError from permit) is the client's error.
  if (error instanceof RecordNotFound) return render(c, "Not found", error.message, 404);
  if (error instanceof TypeError) return c.text(`Bad request: ${error.message}`, 400);
  throw error;
});

export default app;
