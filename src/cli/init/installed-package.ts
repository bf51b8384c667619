/** Finding a package installed for the app, as Node resolves it: in `node_modules` of the folder or one above. */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { isPlainObject } from "../../kernel/index.js";
import { CliError } from "../errors.js";

/** An installed package: its folder (symbolic links resolved, as Node resolves them), version and peer ranges. */
export interface InstalledPackage {
  readonly folder: string;
  readonly version: string;
  /** Its `peerDependencies`: the range of each package it works with. */
  readonly peerDependencies: Readonly<Record<string, unknown>>;
}

// The package.json of an installed package; a broken one is an install to repair, said in words.
function installedManifest(file: string): Record<string, unknown> {
  try {
    const manifest: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (isPlainObject(manifest)) return manifest;
  } catch {
    // Reported below with the file's name.
  }
  throw new CliError(`${file} is not a package manifest npm can read; reinstall the package (npm install).`);
}

/** The package `name` as code in `from` would import it, or undefined when it is not installed. */
export function installedPackage(from: string, name: string): InstalledPackage | undefined {
  for (let folder = path.resolve(from); ; folder = path.dirname(folder)) {
    const file = path.join(folder, "node_modules", name, "package.json");
    if (existsSync(file)) {
      const { version, peerDependencies } = installedManifest(file);
      const peers = isPlainObject(peerDependencies) ? peerDependencies : {};
      if (typeof version === "string") return { folder: realpathSync(path.dirname(file)), version, peerDependencies: peers };
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}
