import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";
import type { QueryLog } from "../query-log.js";

type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;color:#1d2430;background:#f6f7f9;margin:0}
header{background:#1d2430;color:#fff;padding:.75rem 1.5rem;display:flex;gap:1.5rem;align-items:baseline}
header a{color:#fff;text-decoration:none}header strong{font-size:1.15rem;margin-right:auto}
main{max-width:46rem;margin:1.5rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #e1e4e8;border-radius:8px;padding:1rem 1.25rem;margin-bottom:1rem}
.card h2{margin:.1rem 0 .25rem;font-size:1.15rem}a{color:#0b5cad}
.meta{color:#5d6776;font-size:.875rem}.badge{background:#fff4d6;color:#7a5b00;border-radius:4px;padding:0 .4rem;font-size:.8rem}
.intro{color:#3d4756;margin-top:0}.tabs a{margin-right:1rem}.tabs a.current{font-weight:600;text-decoration:none;color:#1d2430}
.pager{display:flex;justify-content:space-between;align-items:center;margin:1rem 0}
label{display:block;font-weight:600;margin-top:.75rem}input[type=text],textarea,select{width:100%;box-sizing:border-box;font:inherit;font-weight:400;padding:.4rem;border:1px solid #c5ccd6;border-radius:6px}
label.inline{font-weight:normal}button{font:inherit;padding:.4rem 1rem;border-radius:6px;border:1px solid #0b5cad;background:#0b5cad;color:#fff;cursor:pointer;margin-top:.75rem}
button.danger{background:#fff;color:#b00020;border-color:#b00020}form.inline{display:inline}
.errors{background:#fdecee;color:#8a0016;border:1px solid #f3b7c0;border-radius:6px;padding:.5rem 1rem .5rem 2rem}
#sql-panel{max-width:60rem;margin:2rem auto;padding:0 1rem;font-size:.85rem}
#sql-panel details{background:#10151d;color:#d5dbe3;border-radius:8px;padding:.75rem 1rem;margin-bottom:.75rem}
#sql-panel summary{cursor:pointer;color:#fff}#sql-panel ol{padding-left:1.5rem}#sql-panel li{margin:.4rem 0}
#sql-panel code{color:#9fe0a8;white-space:pre-wrap;word-break:break-word}#sql-panel .params{color:#f3c77a}
#sql-panel .cost{color:#8c96a5}
`;

function panel(log: QueryLog): Html {
  const summary = `${log.events.length} ${log.events.length === 1 ? "query" : "queries"}, ${log.roundTrips} round ${
    log.roundTrips === 1 ? "trip" : "trips"
  }, ${log.rowsRead} ${log.rowsRead === 1 ? "row" : "rows"} read, ${log.rowsWritten} written, ${log.durationMs.toFixed(2)} ms in D1`;
  return html`<details open class="request">
    <summary><strong>${log.label}</strong>: <span class="summary">${summary}</span></summary>
    <ol>
      ${log.events.map(
        (event) => html`<li>
          <code>${event.sql}</code><br />
          <span class="params">params ${JSON.stringify(event.params)}</span>
          <span class="cost">· ${event.rowsRead} read · ${event.rowsWritten} written · ${event.durationMs} ms${event.batched ? " · batched" : ""}</span>
        </li>`,
      )}
    </ol>
  </details>`;
}

/** A page: the header, the content, and the SQL panel of this request (and of the redirect that led to it). */
export function layout(title: string, content: Html | string, logs: readonly QueryLog[]): Html {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · recordflare playground</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <header>
          <strong><a href="/posts">recordflare playground</a></strong>
          <a href="/posts">Posts</a><a href="/posts/new">New post</a>
        </header>
        <main>${content}</main>
        <section id="sql-panel">
          <h3>SQL sent to D1</h3>
          ${logs.map(panel)}
        </section>
      </body>
    </html>`;
}

/** "3 hours ago", with the exact time on hover. */
export function timeAgo(date: Date, now = Date.now()): Html {
  const seconds = Math.round((now - date.getTime()) / 1000);
  const units: Array<[number, string]> = [[86_400, "day"], [3_600, "hour"], [60, "minute"]];
  const [size, unit] = units.find(([size]) => seconds >= size) ?? [1, "second"];
  const count = Math.max(0, Math.floor(seconds / size));
  const text = count === 0 ? "just now" : `${count} ${unit}${count === 1 ? "" : "s"} ago`;
  return html`<time datetime="${date.toISOString()}" title="${date.toUTCString()}">${text}</time>`;
}

/** The list of validation errors of a form. */
export function errorList(messages: readonly string[]): Html {
  return messages.length ? html`<ul class="errors">${messages.map((message) => html`<li>${message}</li>`)}</ul>` : html``;
}
