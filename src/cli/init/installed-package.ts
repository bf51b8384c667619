/** Finding a package installed for the app, as Node resolves it: in `node_modules` of the folder or one above. */
import { existsSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";

/** An installed package: its folder (symbolic links resolved, as Node resolves them) and version. */
export interface InstalledPackage {
  readonly folder: string;
  readonly version: string;
}

/** The package `name` as code in `from` would import it, or undefined when it is not installed. */
export function installedPackage(from: string, name: string): InstalledPackage | undefined {
  for (let folder = path.resolve(from); ; folder = path.dirname(folder)) {
    const manifest = path.join(folder, "node_modules", name, "package.json");
    if (existsSync(manifest)) {
      const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown };
      if (typeof version === "string") return { folder: realpathSync(path.dirname(manifest)), version };
    }
    if (path.dirname(folder) === folder) return undefined;
  }
}
