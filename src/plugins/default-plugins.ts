import { associations } from "./associations/plugin.js";
import { counterCaches } from "./associations/counter-caches-plugin.js";
import { associationCounts } from "./associations/association-counts-plugin.js";
import { attributeFiltering } from "./attribute-filtering.js";
import { batches } from "./batches.js";
import { bulkWrites } from "./bulk-writes.js";
import { aggregates } from "./aggregates.js";
import { calculations } from "./calculations.js";
import { callbacks } from "./callbacks.js";
import { changeTracking } from "./change-tracking.js";
import { combining } from "./combining.js";
import { counters } from "./counters.js";
import { defaultScopes } from "./default-scopes.js";
import { destroyAll } from "./destroy-all.js";
import { findMany } from "./find-many.js";
import { findOrCreate } from "./find-or-create.js";
import { idGeneration } from "./id-generation.js";
import { lastRecord } from "./last-record.js";
import { normalization } from "./normalization.js";
import { pagination } from "./pagination.js";
import { permitting } from "./permitting.js";
import { queryPlans } from "./query-plans.js";
import { recordPrinting } from "./record-printing.js";
import { scopes } from "./scopes.js";
import { tableNaming } from "./table-naming.js";
import { timestamps } from "./timestamps.js";
import { singleTableInheritance } from "./single-table-inheritance.js";
import { validations } from "./validations.js";

/** The built-in plugins every app gets: together they are the behaviour SPEC.md specifies. */
// Scopes come first: their name check must see a scope named like a static (`filterAttributes`) before a plugin reads it.
// Default scopes come after associations: their wraps of build and create are outside the associations' (see default-scopes.ts).
export const defaultPlugins = [scopes, tableNaming, combining, calculations, aggregates, findMany, findOrCreate, batches, lastRecord, queryPlans, recordPrinting, changeTracking, attributeFiltering, idGeneration, normalization, validations, callbacks, timestamps, pagination, permitting, bulkWrites, destroyAll, counters, associations, counterCaches, associationCounts, defaultScopes, singleTableInheritance];
