/**
 * The `compatibility_date` for a new wrangler.jsonc: the newest date the app's installed wrangler runs. wrangler
 * refuses a date newer than its workerd's release ("requires compatibility date X, newest supported Y"), and that
 * release date is workerd's version (1.20261117.1 supports up to 2026-11-17).
 */
import { installedPackage } from "./installed-package.js";

/**
 * The date when wrangler is not installed yet: every wrangler 4 release supports it, and it is late enough for
 * `nodejs_compat`'s AsyncLocalStorage, which recordflare needs.
 */
export const FALLBACK_COMPATIBILITY_DATE = "2025-03-01";

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

/** The older of `today` and the newest date the app's wrangler (or else its workerd) supports; else the fallback. */
export function compatibilityDateFor(root: string, today: Date = new Date()): CompatibilityDate {
  const wrangler = installedPackage(root, "wrangler");
  const workerd = installedPackage(wrangler?.folder ?? root, "workerd");
  const supported = workerd === undefined ? undefined : workerdDate(workerd.version);
  if (workerd === undefined || supported === undefined) {
    return { date: FALLBACK_COMPATIBILITY_DATE, source: "a date every wrangler 4 supports (wrangler was not installed when recordflare init ran)", installed: false };
  }
  // A date after today is refused on deploy.
  const todayText = today.toISOString().slice(0, 10);
  const date = supported < todayText ? supported : todayText;
  return { date, source: `the newest the installed workerd ${workerd.version} supports`, installed: true };
}
