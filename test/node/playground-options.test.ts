// `npm run playground`'s options: --port or PORT choose the port, and anything else is refused before the build.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
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
