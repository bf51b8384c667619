import { databaseOfRecord, primaryKeyOf } from "../../kernel/index.js";
import { givenText } from "./given-records.js";
import type { ResolvedAssociation } from "./definition.js";
import { keyFor, rowKeyOf } from "./keys.js";
import { listedEntry } from "./polymorphic.js";
import { modelOfRow } from "./polymorphic-type.js";
import { BelongsToAssociation } from "./single.js";
import { ASSOCIATION } from "./slot.js";

type Owner = Record<string, any>;
type Findable = { all(): { findBy(conditions: object): Promise<unknown> } };

/**
 * `comment.commentable`: the parent of whichever listed Model the owner's type column names, by the owner's key.
 * `set(record)` writes both: the key, and the name of the listed Model the record is (or descends from).
 */
export class PolymorphicBelongsToAssociation extends BelongsToAssociation {
  protected override async query(): Promise<any> {
    const { owner, association } = this[ASSOCIATION].requireOwner();
    const model = modelOfRow(owner, association);
    const key = owner.readAttribute(association.foreignKey);
    if (model === null || key === null) return null;
    const database = databaseOfRecord(owner);
    const target = (database ? database.model(model) : model) as unknown as Findable;
    return await target.all().findBy({ [primaryKeyOf(model).name]: key });
  }

  protected override writeKeys(owner: Owner, association: ResolvedAssociation, record: any): void {
    const { foreignKey, polymorphic } = association;
    if (record === null) {
      owner.writeAttribute(foreignKey, null);
      owner.writeAttribute(polymorphic!.foreignType, null);
      return;
    }
    const entry = listedEntry(polymorphic!.models, typeof record === "object" ? record.constructor : undefined);
    if (!entry) {
      const names = [...polymorphic!.models.keys()].join(", ");
      throw new TypeError(`${owner.constructor.name}.${association.name}.set takes a record of ${names} or null, not ${givenText(record)}`);
    }
    const [type, model] = entry;
    owner.writeAttribute(foreignKey, keyFor(owner.constructor, foreignKey, rowKeyOf(record, primaryKeyOf(model).name)));
    owner.writeAttribute(polymorphic!.foreignType, type);
  }
}
