import { attributesOf, attributeWas, column, definePlugin, installChangesGuard, installWritePlans, isAttributeChanged, previewText, RecordflareError, sql } from "../kernel/index.js";

const LOCK = "lockVersion";

/**
 * A record was saved or destroyed while its row no longer had the `lockVersion` the write checked (the one assigned
 * to the record, else the one it was loaded with): another request saved it first, so its version moved on, or it
 * was deleted. Nothing of the save, destroy or batch was written.
 */
export class StaleObject extends RecordflareError {
  override name = "StaleObject";
}

/**
 * The version the row must still have: the one the app assigned (a form's hidden field carrying the version the
 * user saw), else the one the record was loaded with. Checking the loaded one instead would let a stale form save
 * over a newer row.
 */
function versionToCheck(record: object): number {
  const version = isAttributeChanged(record, LOCK) ? (record as { readonly [LOCK]: unknown })[LOCK] : attributeWas(record, LOCK);
  if (typeof version !== "number") {
    throw new TypeError(`${record.constructor.name}.${LOCK}: the version to check is ${previewText(version)}; assign the version the record was loaded with`);
  }
  return version;
}

/**
 * The version each record's pending write checks: an UPDATE's is known before `record:write` moves the attribute on,
 * so it is kept from there to the plan and the outcome.
 */
const checkedVersions = new WeakMap<object, number>();

/**
 * Optimistic locking for the Models with an integer `lockVersion` attribute (column `lock_version`, default 0): a
 * new record writes 0, and the record's own UPDATE and DELETE are made only where `lock_version` is still the
 * version the app assigned to the record, or else the one it was loaded with; an UPDATE moves it on by one. A stale
 * record throws `StaleObject` from `save`, `saveOrThrow`, `destroy` and `batch`, and nothing is written (inside a
 * batch, the whole batch is rolled back).
 */
export const optimisticLocking = definePlugin({
  name: "optimistic-locking",
  // Its hooks plan records' writes.
  setup: installWritePlans,
  appliesTo: (model) => attributesOf(model).some((attribute) => attribute.name === LOCK && attribute.typeName === "integer"),
  hooks: {
    "record:write"({ record, operation, values }) {
      if (operation === "create" && (values.get(LOCK) ?? null) === null) record.writeAttribute(LOCK, 0);
      else if (operation === "update" && values.size > 0) {
        const checked = versionToCheck(record);
        checkedVersions.set(record, checked);
        record.writeAttribute(LOCK, checked + 1);
      }
    },
    "write:plan"(write) {
      if (write.record === undefined || write.kind === "insert") return;
      const checked = write.operation === "update" ? checkedVersions.get(write.record)! : versionToCheck(write.record);
      checkedVersions.set(write.record, checked);
      // Set even when the version moved on lands back on the loaded one (an older version was assigned).
      if (write.operation === "update") write.values.set(LOCK, checked + 1);
      write.where.push(sql`${column(LOCK)} = ${checked}`);
      installChangesGuard();
      write.expectedChanges = 1;
    },
    "write:outcome"({ plan: write, conflict }) {
      if (!conflict || write.record === undefined) return;
      const key = write.model.primaryKey.name;
      const id = previewText(write.record.readAttribute(key));
      const action = write.operation === "destroy" ? "destroyed" : "saved";
      throw new StaleObject(
        `${write.model.name} with ${key} ${id} is stale and was not ${action}: its row no longer has ${LOCK} ${checkedVersions.get(write.record)} (another save moved it on, or the row was deleted)`,
      );
    },
  },
});
