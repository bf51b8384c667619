/**
 * The installed recordflare package's own package.json (this file is built to dist/cli/own-package.mjs, two
 * folders below it): its version for `--version`, and the versions of the tools it is tested with for `init`.
 */
import { readFileSync } from "node:fs";

/** The fields of recordflare's package.json that the command-line tool reads. */
export interface OwnPackage {
  readonly version: string;
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** recordflare's package.json. */
export const ownPackage = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as OwnPackage;
