/**
 * Runs the command tree the way a command-line tool should behave: `--help` (or `-h`) prints the usage of the
 * command named before it; any error prints one line on stderr and gives exit code 1.
 */
import { type CommandDef, renderUsage, runCommand } from "citty";
import { escapeControlCharacters } from "./control-characters.js";
import { fileSystemFailure, isSystemError } from "./errors.js";
import { NodeTooOldError } from "./node-version.js";

type AnyCommand = CommandDef<any>;

async function resolved<T>(value: T | Promise<T> | (() => T | Promise<T>) | undefined): Promise<T | undefined> {
  return typeof value === "function" ? await (value as () => T | Promise<T>)() : await value;
}

// The command the arguments name (`g model` gives generate's model), and the words that lead to it.
async function commandNamed(main: AnyCommand, rawArgs: readonly string[]): Promise<{ command: AnyCommand; path: string[] }> {
  let command = main;
  const path: string[] = [];
  for (const word of rawArgs) {
    if (word.startsWith("-")) continue;
    const subCommands = await resolved(command.subCommands);
    if (!subCommands) break;
    let next: AnyCommand | undefined;
    for (const [name, candidate] of Object.entries(subCommands)) {
      const sub = (await resolved(candidate)) as AnyCommand;
      const meta = await resolved(sub.meta);
      const aliases = meta?.alias === undefined ? [] : [meta.alias].flat();
      if (name === word || aliases.includes(word)) next = sub;
    }
    if (!next) break;
    path.push(word);
    command = next;
  }
  return { command, path };
}

/** The usage text of the command the arguments name. */
export async function usageOf(main: AnyCommand, rawArgs: readonly string[]): Promise<string> {
  const { command, path } = await commandNamed(main, rawArgs);
  const mainName = (await resolved(main.meta))?.name ?? "";
  if (command === main) return await renderUsage(main);
  // citty prefixes the parent's name: give it the whole path before the command (`recordflare g`).
  return await renderUsage(command, { meta: { name: [mainName, ...path.slice(0, -1)].join(" ") } });
}

/**
 * The first option the command does not define, if any. citty would ignore it, so a typo such as `--ids integer`
 * would quietly give UUID keys: a mistake is refused like any other, before anything is written.
 */
async function unknownOption(main: AnyCommand, rawArgs: readonly string[]): Promise<string | undefined> {
  const { command } = await commandNamed(main, rawArgs);
  const known = Object.keys((await resolved(command.args)) ?? {});
  for (const word of rawArgs) {
    if (word === "--") return undefined;
    if (!word.startsWith("-") || word === "-") continue;
    const name = word.replace(/^-+/, "").split("=")[0]!;
    if (!known.includes(name)) return word;
  }
  return undefined;
}

// citty colours parts of its messages; an error line stays plain text.
function plain(text: string): string {
  return text.replace(/\u001B\[[0-9;]*m/g, "");
}

// What the error line says: a failed file operation in words, and on an old Node.js the command that runs instead.
function messageOf(error: unknown, rawArgs: readonly string[]): string {
  if (error instanceof NodeTooOldError) return error.withWayForward(rawArgs);
  if (isSystemError(error)) return fileSystemFailure(error, error.syscall, error.path ?? "a file");
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the command line and returns the exit code: 0, or 1 after printing the error's message as one line.
 * `recordflare --version` prints the version of the installed package.
 */
export async function runCli(main: AnyCommand, rawArgs: readonly string[]): Promise<number> {
  if (rawArgs.length === 1 && rawArgs[0] === "--version") {
    console.log((await resolved(main.meta))?.version);
    return 0;
  }
  if (rawArgs.includes("--help") || rawArgs.includes("-h")) {
    console.log(`${await usageOf(main, rawArgs)}\n`);
    return 0;
  }
  try {
    const unknown = await unknownOption(main, rawArgs);
    if (unknown !== undefined) throw new Error(`Unknown option ${unknown}; see --help for the options.`);
    await runCommand(main, { rawArgs: [...rawArgs] });
    return 0;
  } catch (error) {
    // Without a command, the usage says what there is to run.
    if ((error as { code?: string }).code === "E_NO_COMMAND") console.log(`${await usageOf(main, rawArgs)}\n`);
    // An argument quoted in the message may hold a newline: escaped, the line keeps what follows it.
    console.error(`Error: ${escapeControlCharacters(plain(messageOf(error, rawArgs)))}`);
    return 1;
  }
}
