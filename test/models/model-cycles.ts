import { type Dependent, hasMany, Model } from "../../src/index.js";

/**
 * Cycles of Models on the tables of migration 0078, where every foreign key is a `REFERENCES` column: depots hold
 * boxes, boxes hold crates, and crates hold either boxes (`length: 2`, a loop through two Models) or pallets that
 * hold boxes (`length: 3`), or both (two loops sharing the boxes and crates); every `destroy`. `nested` makes pallets hold crates too: a loop back to the crates
 * within the loop back to the boxes. A crate's labels are nullified, and its holds restrict it when `holds` says so.
 * `unchecked` puts them on the same tables without REFERENCES (migration 0097). Each call makes new classes.
 */
export function modelCycles(options: { length: 2 | 3 | "both"; holds?: Dependent; nested?: boolean; unchecked?: boolean }) {
  const table = (name: string) => (options.unchecked ? `${name}_unchecked` : name);
  const inCycle = (length: 2 | 3) => (options.length === length || options.length === "both" ? { dependent: "destroy" as const } : {});
  class Label extends Model({ id: "integer", cyCrateId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = table("cy_labels");
  }
  class Hold extends Model({ id: "integer", cyCrateId: "integer" }) {
    static override binding = "DB";
    static override tableName = table("cy_holds");
  }
  class Box extends Model({ id: "integer", cyDepotId: "integer", cyCrateId: "integer", cyPalletId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = table("cy_boxes");
    crates = hasMany(Crate, { foreignKey: "cyBoxId", dependent: "destroy" });
  }
  class Crate extends Model({ id: "integer", cyBoxId: "integer", cyPalletId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = table("cy_crates");
    boxes = hasMany(Box, { foreignKey: "cyCrateId", ...inCycle(2) });
    pallets = hasMany(Pallet, { foreignKey: "cyCrateId", ...inCycle(3) });
    labels = hasMany(Label, { foreignKey: "cyCrateId", dependent: "nullify" });
    holds = hasMany(Hold, { foreignKey: "cyCrateId", dependent: (options.holds ?? "deleteAll") as "deleteAll" });
  }
  class Pallet extends Model({ id: "integer", cyCrateId: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = table("cy_pallets");
    boxes = hasMany(Box, { foreignKey: "cyPalletId", dependent: "destroy" });
    crates = hasMany(Crate, { foreignKey: "cyPalletId", ...(options.nested ? { dependent: "destroy" as const } : {}) });
  }
  class Depot extends Model({ id: "integer", name: "string" }) {
    static override binding = "DB";
    static override tableName = table("cy_depots");
    boxes = hasMany(Box, { foreignKey: "cyDepotId", dependent: "destroy" });
  }
  return { Depot, Box, Crate, Pallet, Label, Hold };
}

export type ModelCycles = ReturnType<typeof modelCycles>;

/** Empties the tables of migration 0078, each after the tables whose rows point at it, and those of migration 0097. */
export const CYCLE_TABLES_EMPTIED = [
  ...["depots", "boxes", "crates", "pallets", "labels", "holds"].map((name) => `DELETE FROM cy_${name}_unchecked`),
  "UPDATE cy_boxes SET cy_crate_id = NULL, cy_pallet_id = NULL",
  "UPDATE cy_crates SET cy_pallet_id = NULL",
  "DELETE FROM cy_labels",
  "DELETE FROM cy_holds",
  "DELETE FROM cy_pallets",
  "DELETE FROM cy_crates",
  "DELETE FROM cy_boxes",
  "DELETE FROM cy_depots",
];
