import { installWritePlans } from "../../kernel/index.js";
import { associationConditionWraps } from "./association-conditions.js";
import { associationWork } from "./association-hooks.js";
import { associationRelationWraps } from "./association-relation.js";
import { associationCountWork } from "./with-count.js";
import { counterCacheWork } from "./counter-cache.js";
import { counterCaches } from "./counter-caches-plugin.js";
import { planSetBasedAlike } from "./dependent-tree.js";
import { installedWork, provideAssociationWork } from "./installation.js";
import { narrowingUnder } from "./narrowed-builds.js";
import { associations } from "./plugin.js";

/**
 * Installs what the association plugins do; every declaration calls it (`hasMany`, `hasOne`, `belongsTo`), so it is
 * bundled only by a Worker that declares an association. Once: later calls find it installed.
 */
export function installAssociationWork(): void {
  if (installedWork()) return;
  // Counter caches plan the writes of the records they count.
  installWritePlans();
  // The registered hooks forward to the work: those that plan set-based writes alike (counter caches') or need no
  // records (preparing a tree's targets, handing out its dependents) keep a destroy's tree set-based.
  const hooks = { ...associations.hooks, ...counterCaches.hooks };
  planSetBasedAlike(hooks["record:beforeDestroy"]!, hooks["record:beforeDelete"]!, hooks["write:plan"]!, hooks["write:outcome"]!);
  // A Model's Relation methods are wrapped when its Relation class is made, at its first use, after its declarations
  // ran: every Model that declares an association gets these; one made before declares none, and keeps the methods.
  Object.assign(associationRelationWraps, associationConditionWraps);
  provideAssociationWork({ associations: associationWork, counterCaches: counterCacheWork, associationCounts: associationCountWork, narrowing: narrowingUnder });
}
