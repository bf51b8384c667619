// The command-line tool against README.md's quick start, as a user follows it: the README's command,
// run in a fresh app folder, must print and write exactly what the README shows, and the README's Worker must
// type-check against the generated files. Complements cli.test.ts and generated-app.test.ts.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { app, ok, read, root } from "./helpers/cli-app.js";

const readme = readFileSync(path.join(root, "README.md"), "utf8");

/** The first fenced block of `language` after `marker` in the README. */
function blockAfter(marker: string, language: string): string {
  const at = readme.indexOf(marker);
  expect(at, `README mentions ${marker}`).toBeGreaterThanOrEqual(0);
  const match = new RegExp("```" + language + "\\n([\\s\\S]*?)```").exec(readme.slice(at));
  expect(match, `a ${language} block after ${marker}`).not.toBeNull();
  return match![1]!;
}

function write(folder: string, file: string, text: string): void {
  mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
  writeFileSync(path.join(folder, file), text);
}

describe("README quick start", () => {
  it("its init and g model commands print and write what the README shows, and its Worker type-checks", () => {
    const command = blockAfter("Generate the Model", "sh").trim();
    expect(command).toBe("npx recordflare g model Note title:string! body done:boolean!=false");
    const folder = app();
    expect(blockAfter("set up what the project needs", "sh")).toBe("npx recordflare init\nnpm install\n");
    expect(ok(folder, "init").split("\n\n")[0] + "\n").toBe(blockAfter("set up what the project needs", "text"));
    const printed = ok(folder, ...command.split(" ").slice(2));
    expect(printed).toBe(blockAfter("Generate the Model", "text"));
    expect(read(folder, "migrations/0001_create_notes.sql")).toBe(blockAfter("The migration, `migrations/0001_create_notes.sql`", "sql"));
    expect(read(folder, "src/db/schema.ts")).toBe(blockAfter("The schema file, `src/db/schema.ts`", "ts"));
    expect(read(folder, "src/models/application-record.ts")).toBe(blockAfter("The generated base class", "ts"));
    const model = blockAfter("The generated Model, `src/models/note.ts`", "ts");
    // The README's Model is the generated one with a scope added.
    expect(read(folder, "src/models/note.ts")).toBe(model.replace(/\{\n[\s\S]*\n\}\n$/, "{}\n"));

    write(folder, "src/models/note.ts", model);
    write(folder, "src/index.ts", blockAfter("The Worker opens the database once per request", "ts"));
    mkdirSync(path.join(folder, "node_modules/@cloudflare"), { recursive: true });
    symlinkSync(root, path.join(folder, "node_modules/recordflare"), "dir");
    symlinkSync(path.join(root, "node_modules/@cloudflare/workers-types"), path.join(folder, "node_modules/@cloudflare/workers-types"), "dir");
    write(folder, "package.json", JSON.stringify({ name: "app", private: true, type: "module" }));
    const compilerOptions = { target: "ES2022", lib: ["ES2023"], module: "ESNext", moduleResolution: "bundler", types: ["@cloudflare/workers-types"], strict: true, noImplicitOverride: true, noEmit: true };
    write(folder, "tsconfig.json", JSON.stringify({ compilerOptions, include: ["src"] }));
    const tsc = spawnSync(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: folder, encoding: "utf8" });
    expect(tsc.stdout + tsc.stderr).toBe("");
    expect(tsc.status).toBe(0);
  }, 60_000);
});
