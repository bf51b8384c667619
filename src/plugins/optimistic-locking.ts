import { attributesOf, column, definePlugin, previewText, RecordflareError, sql } from "../kernel/index.js";

const LOCK = "lockVersion";

/**
 * A record was saved or destroyed while its row had changed since it was loaded (another request saved it first, so
 * its `lockVersion` moved on) or was deleted. Nothing of the save, destroy or batch was written.
 */
export class StaleObject extends RecordflareError {
  override name = "StaleObject";
}

/** The lock version the record was loaded with. */
const loadedVersion = (record: any): number => record.attributeWas(LOCK);

/**
 * Optimistic locking for the Models with an integer `lockVersion` attribute (column `lock_version`, default 0): a
 * new record writes 0, and the record's own UPDATE and DELETE are made only where `lock_version` is still the
 * version it was loaded with; an UPDATE moves it on by one. A stale record throws `StaleObject` from `save`,
 * `saveOrThrow`, `destroy` and `batch`, and nothing is written (inside a batch, the whole batch is rolled back).
 */
export const optimisticLocking = definePlugin({
  name: "optimistic-locking",
  appliesTo: (model) => attributesOf(model).some((attribute) => attribute.name === LOCK && attribute.typeName === "integer"),
  hooks: {
    "record:write"({ record, operation, values }) {
      if (operation === "create" && (values.get(LOCK) ?? null) === null) record.writeAttribute(LOCK, 0);
      else if (operation === "update" && values.size > 0) record.writeAttribute(LOCK, loadedVersion(record) + 1);
    },
    "record:planWrite"(write) {
      if (write.kind === "insert") return;
      write.where.push(sql`${column(LOCK)} = ${loadedVersion(write.record)}`);
      write.expectedChanges = 1;
    },
    "record:writeOutcome"({ write, conflict }) {
      if (!conflict) return;
      const key = write.model.primaryKey.name;
      const id = previewText(write.record.readAttribute(key));
      const action = write.operation === "destroy" ? "destroyed" : "saved";
      throw new StaleObject(
        `${write.model.name} with ${key} ${id} is stale and was not ${action}: its row was changed or deleted since it was loaded (${LOCK} ${loadedVersion(write.record)})`,
      );
    },
  },
});
