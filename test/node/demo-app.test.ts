// The playground: `npm run playground`'s options (--port or PORT choose the port, anything else is refused before
// the build), and the app in a real browser: Debian's chromium, driven by puppeteer-core, clicks through the blog as
// a visitor would, against `npm run playground` on a free port with a fresh local D1. Screenshots go to
// test/browser/screenshots/ (gitignored). Without /usr/bin/chromium the browser test is skipped on a developer
// machine and fails in CI (CI set), where .ci/run installs it.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "./helpers/cli-app.js";
// @ts-expect-error a plain .mjs script, without types
import { playgroundPort } from "../../scripts/playground.mjs";

describe("npm run playground's port", () => {
  it("is --port, else PORT, else 8787", () => {
    expect(playgroundPort([], {})).toBe(8787);
    expect(playgroundPort([], { PORT: "9000" })).toBe(9000);
    expect(playgroundPort(["--port", "31787"], { PORT: "9000" })).toBe(31787);
    expect(playgroundPort(["--port=31788"], {})).toBe(31788);
  });

  it("refuses what is not a port, naming where it came from", () => {
    expect(() => playgroundPort(["--port", "abc"], {})).toThrow('--port must be a port number from 1 to 65535, not "abc".');
    expect(() => playgroundPort([], { PORT: "70000" })).toThrow('PORT must be a port number from 1 to 65535, not "70000".');
    expect(() => playgroundPort(["--port"], {})).toThrow("--port needs a value.");
  });

  it("refuses an unknown argument with the usage, before building anything", () => {
    const result = spawnSync(process.execPath, [path.join(root, "scripts/playground.mjs"), "--host", "0.0.0.0"], { encoding: "utf8" });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(
      "Error: Unknown argument --host.\nUsage: npm run playground [-- --port <port>]   (or PORT=<port> npm run playground; default 8787)\n",
    );
  });
});

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
const screenshots = path.join(root, "test/browser/screenshots");

if (!hasChromium && !process.env.CI) {
  console.warn(`playground browser test skipped: ${CHROMIUM} is missing (apt-get install chromium to run it)`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Waits until wrangler says it is ready on the port and the port accepts connections, without a request: the browser's
 * first page is the first request. Wrangler's own line matters: under a parallel test run another process (a workerd
 * of the workers pool) may hold the port for a moment, which a connection alone would mistake for the playground.
 */
async function waitUntilListening(port: number, playground: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (playground.exitCode !== null) throw new Error(`the playground exited (${playground.exitCode}):\n${output()}`);
    if (!output().includes(`Ready on http://127.0.0.1:${port}`)) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (listening) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the playground did not listen on port ${port} within 45 s:\n${output()}`);
}

/** Clicks (or submits) and waits for the page it leads to; resolves to that response's status. */
async function navigate(page: Page, action: () => Promise<unknown>): Promise<number> {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response!.status();
}

const text = (page: Page, selector: string) => page.$eval(selector, (element) => element.textContent ?? "");

/** A running playground: its address, and how to end it. */
type RunningPlayground = { base: string; stop(): void };

/** Runs the playground as `npm run playground` does (the package is already built), on a free port and a fresh D1. */
async function startPlayground(): Promise<RunningPlayground> {
  const port = await freePort();
  const state = mkdtempSync(path.join(tmpdir(), "recordflare-playground-"));
  let output = "";
  const playground: ChildProcess = spawn(process.execPath, [path.join(root, "scripts/playground.mjs"), "--port", String(port)], {
    cwd: root,
    detached: true,
    env: { ...process.env, PLAYGROUND_PERSIST_TO: state, PLAYGROUND_SKIP_BUILD: "1" },
  });
  playground.stdout!.on("data", (chunk) => (output += chunk));
  playground.stderr!.on("data", (chunk) => (output += chunk));
  const stop = () => {
    // wrangler and workerd run under the script: end the whole process group it leads.
    if (playground.pid && playground.exitCode === null) process.kill(-playground.pid, "SIGTERM");
    rmSync(state, { recursive: true, force: true });
  };
  try {
    await waitUntilListening(port, playground, () => output);
  } catch (error) {
    stop();
    throw error;
  }
  return { base: `http://127.0.0.1:${port}`, stop };
}

describe("the playground's SQL panel, per visitor", () => {
  let playground: RunningPlayground | undefined;

  beforeAll(async () => {
    playground = await startPlayground();
  }, 60_000);

  afterAll(() => playground?.stop());

  /** A visitor without a browser: posts a form, follows the redirect with the cookies it got; the page's HTML. */
  async function postAndFollow(path: string, form: Record<string, string>): Promise<string> {
    const posted = await fetch(`${playground!.base}${path}`, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
    expect(posted.status).toBe(303);
    const cookies = posted.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
    const page = await fetch(new URL(posted.headers.get("location")!, playground!.base), { headers: { cookie: cookies } });
    return page.text();
  }

  it("shows each visitor the queries of its own requests: two concurrent posts each see their own INSERT, never the other's", async () => {
    await fetch(`${playground!.base}/posts`); // seeds the demo data
    const users = await (await fetch(`${playground!.base}/posts/new`)).text();
    const userId = /<option value="([^"]+)"/.exec(users)![1]!;
    const titles = ["Written by the first visitor", "Written by the second visitor"];
    const pages = await Promise.all(titles.map((title) => postAndFollow("/posts", { title, body: "Body.", userId, published: "true" })));
    for (const [index, page] of pages.entries()) {
      const panel = page.slice(page.indexOf('id="sql-panel"'));
      expect(panel).toMatch(/POST \/posts<\/strong>/);
      expect(panel).toContain("INSERT INTO &quot;posts&quot;");
      // The INSERT's params hold the title: this visitor's, never the other's.
      expect(panel).toContain(titles[index]);
      expect(page).not.toContain(titles[1 - index]);
    }
    // A visitor arriving without a redirect sees only its own request.
    const fresh = await (await fetch(`${playground!.base}/posts?scope=drafts`)).text();
    expect(fresh).not.toMatch(/POST \/posts<\/strong>/);
  }, 60_000);
});

describe.skipIf(!hasChromium && !process.env.CI)("the playground in a browser", () => {
  let playground: RunningPlayground | undefined;
  let browser: Browser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    if (!hasChromium) throw new Error(`${CHROMIUM} is missing: CI must install chromium (see .ci/run)`);
    playground = await startPlayground();
    base = playground.base;
    browser = await puppeteer.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--disable-gpu"] });
    page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 900 });
    mkdirSync(screenshots, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    playground?.stop();
  });

  it("seeds demo data on the first request, and lists the posts five to a page with the SQL of the request", async () => {
    expect(await navigate(page, () => page.goto(`${base}/posts`))).toBe(200);
    expect(await page.$$eval("article.post", (posts) => posts.length)).toBe(5);
    expect(await text(page, ".pager")).toContain("Page 1 of 3");
    const panel = await text(page, "#sql-panel");
    expect(panel).toMatch(/GET \/posts: \d+ queries, \d+ round trips, \d+ rows read/);
    expect(panel).toContain("SELECT COUNT(*)");
    expect(panel).toContain('INSERT INTO "users"');
    expect(panel).toContain('"[FILTERED]"'); // the seeded users' emails
    expect(panel).not.toContain("ada@example.com");
    await page.screenshot({ path: path.join(screenshots, "posts.png"), fullPage: true });

    expect(await navigate(page, () => page.click("a[rel=next]"))).toBe(200);
    expect(await text(page, ".pager")).toContain("Page 2 of 3");
    expect(await navigate(page, () => page.click("a[href='/posts?scope=drafts']"))).toBe(200);
    expect(await page.$$eval("article.post h2", (titles) => titles.map((title) => title.textContent))).toEqual(["A draft"]);
  });

  it("refuses an invalid post with 422 and its message, then creates, edits, comments and destroys it", async () => {
    await navigate(page, () => page.goto(`${base}/posts/new`));
    await page.type("textarea[name=body]", "Written by a browser.");
    expect(await navigate(page, () => page.click("form button"))).toBe(422);
    expect(await text(page, ".errors")).toContain("Title can't be blank");
    expect(await page.$eval("textarea[name=body]", (body) => (body as unknown as { value: string }).value)).toBe("Written by a browser.");
    await page.screenshot({ path: path.join(screenshots, "invalid-post.png"), fullPage: true });

    await page.type("input[name=title]", "Hello from chromium");
    expect(await navigate(page, () => page.click("form button"))).toBe(200);
    expect(await text(page, "h1")).toBe("Hello from chromium");
    expect(await text(page, "#sql-panel")).toMatch(/POST \/posts: 1 query, 1 round trip/);
    expect(await text(page, "#sql-panel")).toContain('INSERT INTO "posts"');
    await page.screenshot({ path: path.join(screenshots, "post.png"), fullPage: true });

    await navigate(page, () => page.click("a[href$='/edit']"));
    await page.$eval("input[name=title]", (input) => ((input as unknown as { value: string }).value = ""));
    await page.type("input[name=title]", "Edited in chromium");
    await page.click("input[name=published][type=checkbox]");
    expect(await navigate(page, () => page.click("form button"))).toBe(200);
    expect(await text(page, "h1")).toBe("Edited in chromium");
    expect(await text(page, "#sql-panel")).toContain('UPDATE "posts" SET');

    await page.type("form[action$='/comments'] textarea", "First!");
    expect(await navigate(page, () => page.click("form[action$='/comments'] button"))).toBe(200);
    expect(await text(page, ".comment")).toContain("First!");
    const postUrl = page.url();
    const json = (await (await fetch(`${postUrl}.json`)).json()) as Record<string, unknown>;
    expect(json).toMatchObject({ title: "Edited in chromium", published: true, user: { name: "Ada Lovelace" }, comments: [{ body: "First!" }] });
    expect(json.user).not.toHaveProperty("posts");

    page.once("dialog", (dialog) => void dialog.accept());
    expect(await navigate(page, () => page.click("button.danger"))).toBe(200);
    expect(new URL(page.url()).pathname).toBe("/posts");
    const panel = await text(page, "#sql-panel");
    expect(panel).toMatch(/DELETE FROM "comments"[\s\S]*DELETE FROM "posts"/);
    expect(await text(page, "main")).toContain("12 posts");
    await page.screenshot({ path: path.join(screenshots, "after-destroy.png"), fullPage: true });
    expect(await navigate(page, () => page.goto(postUrl))).toBe(404);
  }, 30_000);
});
