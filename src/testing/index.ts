/**
 * recordflare/testing: helpers for an app's tests under the Workers Vitest integration, inside workerd on a local D1:
 * apply the app's migrations, make records with factories, and pin what a page costs (round trips, table scans).
 * The Vitest config reads the migrations with `readMigrations` from `recordflare/testing/config`.
 * @packageDocumentation
 */
export { applyMigrations, type ApplyMigrationsOptions, type Migration } from "./apply-migrations.js";
export { defineFactory, type Factory, type FactoryAttributes, type FactoryDefinition, type FactoryOptions } from "./factories.js";
export { countQueries, expectRoundTrips, type QueryCostOptions, type QueryCosts } from "./query-costs.js";
export { recordingBinding, type SentStatement } from "./recording-binding.js";
export { expectNoTableScans, type TableScanOptions } from "./table-scans.js";
