#!/usr/bin/env node
/**
 * Lists every `async` function under src/ that returns a promise without awaiting it (`return this.save()` rather
 * than `return await this.save()`). Such a promise, when it is already rejected (a method that refuses its arguments
 * as it starts), gets its handler a few microtasks later, when the async function adopts it: workerd before the
 * 2026-03 compatibility dates reports that rejection as unhandled, which fails an app's Vitest run although the app
 * awaited the call. Exits with code 1 when it finds one.
 *
 * Usage: node scripts/check-return-await.mjs
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
const files = config.fileNames.filter((file) => file.startsWith(path.join(root, "src") + path.sep));
const program = ts.createProgram(files, { ...config.options, noEmit: true });
const checker = program.getTypeChecker();

function isAsync(node) {
  return ts.isFunctionLike(node) && (ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Async) !== 0;
}

/** Whether the expression's type may be a promise (a union with one counts). */
function mayBePromise(expression) {
  const type = checker.getTypeAtLocation(expression);
  const parts = type.isUnion() ? type.types : [type];
  return parts.some((part) => checker.getPropertyOfType(part, "then") !== undefined);
}

const found = [];
function report(node) {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  found.push(`${path.relative(root, source.fileName)}:${line + 1}: ${node.getText().split("\n")[0].slice(0, 100)}`);
}

/** Visits `node`, knowing whether the innermost function around it is async. */
function visit(node, inAsync) {
  if (ts.isFunctionLike(node)) {
    inAsync = isAsync(node);
    if (inAsync && ts.isArrowFunction(node) && !ts.isBlock(node.body) && !ts.isAwaitExpression(node.body) && mayBePromise(node.body)) report(node.body);
  }
  if (inAsync && ts.isReturnStatement(node) && node.expression && !ts.isAwaitExpression(node.expression) && mayBePromise(node.expression)) report(node);
  ts.forEachChild(node, (child) => visit(child, inAsync));
}

for (const file of files) visit(program.getSourceFile(file), false);
for (const line of found) console.log(line);
if (found.length > 0) {
  console.error(`${found.length} async functions return a promise without awaiting it: write return await`);
  process.exit(1);
}
