import { html } from "hono/html";
import type { Comment } from "../models/comment.js";
import type { Post } from "../models/post.js";
import type { User } from "../models/user.js";
import { errorList, timeAgo } from "./layout.js";

/** The tabs of the posts list: every post, or one of `Post`'s scopes. */
export const SCOPES = ["all", "published", "drafts"] as const;
/** One of the tabs. */
export type ScopeName = (typeof SCOPES)[number];

interface PageOfPosts {
  records: Post[];
  page: number;
  totalPages: number;
  total: number;
  hasNext: boolean;
  hasPrevious: boolean;
}

function byline(post: Post) {
  return html`<span class="meta">by ${post.user.get()?.name ?? "nobody"} · ${timeAgo(post.createdAt)}
    ${post.published ? "" : html`<span class="badge">draft</span>`}</span>`;
}

/** The posts list: scope tabs, one card per post, and the pager. */
export function postList(page: PageOfPosts, scope: ScopeName) {
  const link = (number: number) => `/posts?scope=${scope}&page=${number}`;
  return html`<p class="intro">
      A small blog on recordflare and a local D1 database: users, posts and comments. Create, edit and destroy posts;
      every page ends with the SQL its request sent.
    </p>
    <nav class="tabs">
      ${SCOPES.map((name) => html`<a href="/posts?scope=${name}" class="${name === scope ? "current" : ""}">${name}</a>`)}
    </nav>
    <p class="meta">${page.total} ${page.total === 1 ? "post" : "posts"}, newest first.</p>
    ${page.records.map(
      (post) => html`<article class="card post">
        <h2><a href="/posts/${post.id}">${post.title}</a></h2>
        ${byline(post)}
      </article>`,
    )}
    <div class="pager">
      ${page.hasPrevious ? html`<a rel="prev" href="${link(page.page - 1)}">← Previous</a>` : html`<span></span>`}
      <span class="meta">Page ${page.page} of ${Math.max(page.totalPages, 1)}</span>
      ${page.hasNext ? html`<a rel="next" href="${link(page.page + 1)}">Next →</a>` : html`<span></span>`}
    </div>`;
}

/** One post with its author and comments, and the comment form. */
export function postPage(post: Post, comments: Comment[], users: User[], commentErrors: string[] = [], commentBody = "") {
  return html`<article class="card">
      <h1>${post.title}</h1>
      ${byline(post)}
      ${post.body ? html`<p class="body">${post.body}</p>` : ""}
      <a href="/posts/${post.id}/edit">Edit</a> · <a href="/posts/${post.id}.json">as JSON</a>
      <form class="inline" method="post" action="/posts/${post.id}/delete">
        · <button class="danger" onclick="return confirm('Destroy this post and its comments?')">Destroy</button>
      </form>
    </article>
    <h2>${comments.length} ${comments.length === 1 ? "comment" : "comments"}</h2>
    ${comments.map(
      (comment) => html`<div class="card comment">
        <p>${comment.body}</p>
        <span class="meta">${comment.user.get()?.name} · ${timeAgo(comment.createdAt)}</span>
      </div>`,
    )}
    <form class="card" method="post" action="/posts/${post.id}/comments">
      ${errorList(commentErrors)}
      <label>Comment <textarea name="body" rows="2">${commentBody}</textarea></label>
      <label>As ${userSelect(users, users[0]?.id ?? "")}</label>
      <button>Add comment</button>
    </form>`;
}

function userSelect(users: User[], selected: string) {
  return html`<select name="userId">
    ${users.map((user) => html`<option value="${user.id}" ${user.id === selected ? "selected" : ""}>${user.name}</option>`)}
  </select>`;
}

/** The form to create or edit a post, with the errors of a refused save. */
export function postForm(post: Post, users: User[]) {
  const action = post.isNewRecord() ? "/posts" : `/posts/${post.id}`;
  return html`<h1>${post.isNewRecord() ? "New post" : "Edit post"}</h1>
    <form class="card" method="post" action="${action}">
      ${errorList(post.errors.fullMessages())}
      <label>Title <input type="text" name="title" value="${post.title ?? ""}" /></label>
      <label>Body <textarea name="body" rows="5">${post.body ?? ""}</textarea></label>
      <label>Author ${userSelect(users, post.userId ?? "")}</label>
      <input type="hidden" name="published" value="false" />
      <label class="inline"><input type="checkbox" name="published" value="true" ${post.published ? "checked" : ""} /> Published</label>
      <button>${post.isNewRecord() ? "Create post" : "Save changes"}</button>
    </form>`;
}
