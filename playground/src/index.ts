import { connect, withDatabase } from "recordflare";
import { Note } from "./models/note.js";

interface Env {
  DB: D1Database;
}

/** What the queries of one request cost, shown in the page footer. */
interface Stats {
  queries: number;
  rowsRead: number;
}

export default {
  fetch(request, env): Promise<Response> {
    const stats: Stats = { queries: 0, rowsRead: 0 };
    const db = connect(env.DB, {
      onQuery(event) {
        stats.queries += 1;
        stats.rowsRead += event.rowsRead;
        console.log(`[sql] ${event.sql} ${JSON.stringify(event.params)} (${event.durationMs} ms, ${event.rowsRead} read)`);
      },
    });
    return withDatabase(db, () => route(request, stats));
  },
} satisfies ExportedHandler<Env>;

async function route(request: Request, stats: Stats): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === "GET" && pathname === "/") return html(await page(stats));
  if (request.method === "GET" && pathname === "/notes.json") return Response.json(await recentNotes());
  if (request.method === "POST" && pathname === "/notes") return createNote(request, stats);
  return new Response("Not found", { status: 404 });
}

function recentNotes() {
  return Note.order({ createdAt: "desc" }).limit(50).toArray();
}

async function createNote(request: Request, stats: Stats): Promise<Response> {
  let form: FormData | undefined;
  let errors: string[];
  try {
    form = await request.formData();
    const note = await Note.create(Note.permit(form, "title", "body"));
    if (note.isPersisted()) return Response.redirect(new URL("/", request.url).href, 303);
    errors = note.errors.fullMessages();
  } catch (error) {
    // A body that is not a form, a value that does not cast (TypeError), or a database error such as NOT NULL.
    if (!(error instanceof Error)) throw error;
    errors = [error.message];
  }
  const input = { title: String(form?.get("title") ?? ""), body: String(form?.get("body") ?? "") };
  return html(await page(stats, errors, input), 422);
}

async function page(stats: Stats, errors: string[] = [], input = { title: "", body: "" }): Promise<string> {
  const notes = await recentNotes();
  const items = notes.map(
    (note) => `<li><strong>${escape(note.title)}</strong>${note.done ? " ✓" : ""}
      ${note.body ? `<p>${escape(note.body)}</p>` : ""}
      <small>${note.createdAt.toISOString()}</small></li>`,
  );
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>recordflare playground</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
input,textarea{display:block;width:100%;margin:.25rem 0 .75rem}.errors{color:#b00020}footer{color:#666;margin-top:2rem}</style></head>
<body>
<h1>Notes</h1>
<form method="post" action="/notes">
${errors.length ? `<ul class="errors">${errors.map((message) => `<li>${escape(message)}</li>`).join("")}</ul>` : ""}
<label>Title <input name="title" value="${escape(input.title)}"></label>
<label>Body <textarea name="body" rows="3">${escape(input.body)}</textarea></label>
<button>Add note</button>
</form>
<ul>${items.join("\n") || "<li>No notes yet.</li>"}</ul>
<footer>${stats.queries} ${stats.queries === 1 ? "query" : "queries"}, ${stats.rowsRead} rows read · <a href="/notes.json">notes.json</a></footer>
</body>
</html>`;
}

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8" } });
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
