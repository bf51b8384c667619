/**
 * The `compatibility_date` for a new wrangler.jsonc: the newest date both the app's installed wrangler and its
 * Workers Vitest integration run. Each refuses a date newer than its workerd's release ("requires compatibility
 * date X, newest supported Y"), that release date is workerd's version (1.20261117.1 supports up to 2026-11-17), and
 * the integration's workerd (through miniflare) is often older than wrangler's.
 */
import { installedPackage } from "./installed-package.js";

/**
 * The date when wrangler is not installed yet: every wrangler 4 release supports it, and it is late enough for
 * `nodejs_compat`'s AsyncLocalStorage, which recordflare needs.
 */
export const FALLBACK_COMPATIBILITY_DATE = "2025-03-01";

/**
 * The date recordflare is tested with (its vitest.config.ts), which the wrangler and Workers Vitest integration
 * versions `init` adds to package.json support: a new project's date, as current as those tools allow. An older
 * date changes workerd's behaviour (before 2026-03 it reports a rejection handled a microtask late as unhandled,
 * which fails a Vitest run).
 */
export const TESTED_COMPATIBILITY_DATE = "2026-11-01";

/** A compatibility date and where it comes from, for the command's output. */
export interface CompatibilityDate {
  readonly date: string;
  readonly source: string;
  /** Whether the date comes from the installed workerd (a later one would be refused), not the fallback. */
  readonly installed: boolean;
}

// workerd 1.YYYYMMDD.N is the release of that day.
function workerdDate(version: string): string | undefined {
  const match = /^1\.(\d{4})(\d{2})(\d{2})\.\d+$/.exec(version);
  return match ? `${match[1]}-${match[2]}-${match[3]}` : undefined;
}

/** The workerd installations the app runs on: wrangler's, and the Vitest integration's (through miniflare). */
function installedWorkerds(root: string): { version: string; date: string }[] {
  const wrangler = installedPackage(root, "wrangler");
  const plugin = installedPackage(root, "@cloudflare/vitest-plugin");
  const miniflare = plugin && installedPackage(plugin.folder, "miniflare");
  const found = [installedPackage(wrangler?.folder ?? root, "workerd"), miniflare && installedPackage(miniflare.folder, "workerd")];
  return found.flatMap((workerd) => {
    const date = workerd && workerdDate(workerd.version);
    return workerd && date ? [{ version: workerd.version, date }] : [];
  });
}

/**
 * The older of `today` and the newest date every installed workerd supports; with none installed, the tested date
 * when `addsTestedTools` (package.json gets the tested wrangler and Workers Vitest integration), else the fallback.
 */
export function compatibilityDateFor(root: string, addsTestedTools: boolean, today: Date = new Date()): CompatibilityDate {
  const [workerd] = installedWorkerds(root).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // A date after today is refused on deploy.
  const todayText = today.toISOString().slice(0, 10);
  const notAfterToday = (date: string) => (date < todayText ? date : todayText);
  if (workerd !== undefined) {
    return { date: notAfterToday(workerd.date), source: `the newest the installed workerd ${workerd.version} supports`, installed: true };
  }
  if (addsTestedTools) {
    return { date: notAfterToday(TESTED_COMPATIBILITY_DATE), source: "the date recordflare is tested with, which the wrangler and @cloudflare/vitest-plugin added to package.json support", installed: false };
  }
  return { date: FALLBACK_COMPATIBILITY_DATE, source: "a date every wrangler 4 supports (wrangler was not installed when recordflare init ran)", installed: false };
}
