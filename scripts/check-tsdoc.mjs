#!/usr/bin/env node
/**
 * Lists the symbols exported from the package's entries, src/index.ts and src/plugin.ts, and from the plugin API
 * they take from, src/kernel/index.ts (re-exports followed), that have no TSDoc comment (a `/** ... *\/` directly
 * above the declaration), and, for exported classes, their public members without one. An `override` member
 * inherits the documentation of the member it overrides, so it is reported only when that member is ours (in src)
 * and has none either. Exits with code 1 when something is missing.
 *
 * Usage: node scripts/check-tsdoc.mjs [--verbose]
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entries = ["src/index.ts", "src/plugin.ts", "src/kernel/index.ts"].map((file) => path.join(root, file));
const verbose = process.argv.includes("--verbose");

const program = ts.createProgram(entries, {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();

/** Whether the node has a `/** ... *\/` comment directly above it (for a variable, above its statement). */
function hasTsDoc(node) {
  return ts.getJSDocCommentsAndTags(node).some((doc) => ts.isJSDoc(doc));
}

function kindOf(declaration) {
  return ts.SyntaxKind[declaration.kind].replace(/Declaration$/, "");
}

function where(node) {
  const source = node.getSourceFile();
  const { line } = source.getLineAndCharacterOfPosition(node.getStart());
  return `${path.relative(root, source.fileName)}:${line + 1}`;
}

function isPublicMember(member) {
  if (ts.isConstructorDeclaration(member) || ts.isClassStaticBlockDeclaration(member) || ts.isIndexSignatureDeclaration(member)) return false;
  if (ts.isSemicolonClassElement(member)) return false;
  if (!member.name || ts.isPrivateIdentifier(member.name)) return false;
  const flags = ts.getCombinedModifierFlags(member);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

function memberName(member) {
  const name = member.name;
  if (ts.isComputedPropertyName(name)) return `[${name.expression.getText()}]`;
  return name.getText();
}

/** Whether an `override` member's overridden member is documented, or is the platform's (lib .d.ts). */
function inheritsDoc(member, classDeclaration) {
  if ((ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Override) === 0) return false;
  const heritage = classDeclaration.heritageClauses?.find((clause) => clause.token === ts.SyntaxKind.ExtendsKeyword);
  const baseExpression = heritage?.types[0]?.expression;
  if (!baseExpression) return false;
  const isStatic = (ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static) !== 0;
  const baseType = isStatic ? checker.getTypeAtLocation(baseExpression) : checker.getTypeAtLocation(heritage.types[0]);
  const name = member.name && !ts.isComputedPropertyName(member.name) ? member.name.getText() : undefined;
  const baseMember = name === undefined ? undefined : baseType.getProperty(name);
  if (!baseMember) return false;
  return (baseMember.declarations ?? []).some((d) => d.getSourceFile().isDeclarationFile || hasTsDoc(d));
}

const missing = [];
const seen = new Set();
let checked = 0;

for (const entry of entries) {
  const source = program.getSourceFile(entry);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declarations = (symbol.declarations ?? []).filter((d) => !d.getSourceFile().isDeclarationFile);
    if (declarations.length === 0) continue;
    const key = `${exported.name}@${where(declarations[0])}`;
    if (seen.has(key)) continue;
    seen.add(key);
    checked++;
    // An overloaded function or a merged declaration (a value and a type of one name) needs one comment.
    if (!declarations.some(hasTsDoc)) missing.push(`${where(declarations[0])}  ${kindOf(declarations[0])} ${exported.name}`);
    else if (verbose) console.log(`ok  ${exported.name}`);
    for (const declaration of declarations) {
      if (!ts.isClassDeclaration(declaration) && !ts.isClassExpression(declaration)) continue;
      const byName = new Map();
      for (const member of declaration.members) {
        if (!isPublicMember(member)) continue;
        const name = `${ts.getCombinedModifierFlags(member) & ts.ModifierFlags.Static ? "static " : ""}${memberName(member)}`;
        byName.set(name, [...(byName.get(name) ?? []), member]);
      }
      for (const [name, members] of byName) {
        checked++;
        if (!members.some(hasTsDoc) && !members.some((m) => inheritsDoc(m, declaration))) missing.push(`${where(members[0])}  ${exported.name}.${name.replace(/^static /, "(static) ")}`);
      }
    }
  }
}

for (const line of missing) console.log(line);
console.log(`${checked} symbols and class members checked, ${missing.length} without TSDoc`);
process.exitCode = missing.length === 0 ? 0 : 1;
