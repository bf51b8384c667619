import { argumentError, refuseUninspectable } from "../records/arguments.js";
import { previewText } from "../records/display.js";
import { isPlainObject } from "../records/plain-object.js";
import { isHookName } from "./hook-names.js";

/** The keys a plugin definition has (see `Plugin` in plugin.ts). */
const KEYS: ReadonlySet<string> = new Set(["name", "hooks", "relationMethods", "wrap", "setup", "appliesTo"]);
/** The kinds of methods `wrap` takes wrappers of. */
const WRAPPED: ReadonlySet<string> = new Set(["relation", "static", "record"]);

/** Refuses what is no function (`setup: 5` would fail later as a raw "is not a function", a hook never run). */
function refuseNonFunction(where: string, value: unknown): void {
  if (typeof value !== "function") throw argumentError(where, "a function", value);
}

/** Refuses what is no plain object of functions (`relationMethods`, `hooks`, each kind of `wrap`); `checkName` checks each key. */
function refuseNonFunctions(where: string, given: unknown, checkName?: (name: string) => void): void {
  if (given === undefined) return;
  if (!isPlainObject(given)) throw argumentError(where, "an object of functions by name", given);
  for (const [name, value] of Object.entries(given)) {
    checkName?.(name);
    refuseNonFunction(`${where}: ${name}`, value);
  }
}

/**
 * Checks a plugin definition (`definePlugin`, `Model.use`), so that nothing in it is silently ignored: its name, no
 * key but `Plugin`'s (`hook:` for `hooks:` would register nothing), hooks only at points of the catalogue, and a
 * function wherever one is taken. Throws `TypeError` naming the plugin and the key.
 */
export function checkPlugin(where: string, plugin: unknown): void {
  refuseUninspectable(where, "a plugin definition", plugin);
  if (!isPlainObject(plugin) || typeof plugin["name"] !== "string" || plugin["name"] === "") {
    throw argumentError(where, "a plugin definition { name, hooks?, relationMethods?, wrap?, setup?, appliesTo? }", plugin);
  }
  const named = `${where}(${previewText(plugin["name"])})`;
  const unknown = Object.keys(plugin).find((key) => !KEYS.has(key));
  if (unknown !== undefined) throw new TypeError(`${named}: ${previewText(unknown)} is not a key of a plugin; the keys are ${[...KEYS].join(", ")}`);
  refuseNonFunctions(`${named}: hooks`, plugin["hooks"], (name) => {
    if (!isHookName(name)) throw new TypeError(`${named}: hooks: ${previewText(name)} is not a hook point (see the hook catalogue)`);
  });
  refuseNonFunctions(`${named}: relationMethods`, plugin["relationMethods"]);
  const wrap = plugin["wrap"];
  if (wrap !== undefined && !isPlainObject(wrap)) throw argumentError(`${named}: wrap`, "an object of relation, static and record wrappers", wrap);
  for (const [kind, wrappers] of Object.entries(wrap ?? {})) {
    if (!WRAPPED.has(kind)) throw new TypeError(`${named}: wrap: ${previewText(kind)} is not a kind of method; the kinds are relation, static, record`);
    refuseNonFunctions(`${named}: wrap: ${kind}`, wrappers);
  }
  for (const key of ["setup", "appliesTo"]) if (plugin[key] !== undefined) refuseNonFunction(`${named}: ${key}`, plugin[key]);
}
