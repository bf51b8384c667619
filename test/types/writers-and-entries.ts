/**
 * Writers with entries, photos and notes on either (a polymorphic belongsTo), declared by hand with `Model({...})`, for
 * the type tests of associations by name. Only type-checked.
 */
import { belongsTo, hasMany, hasOne, Model } from "../../src/index.js";

export class Writer extends Model({ id: "integer", name: "string" }) {
  posts = hasMany(Entry, { foreignKey: "writerId" });
  profile = hasOne(Bio);
}

export class Entry extends Model({ id: "integer", writerId: "integer", title: "string" }) {
  author = belongsTo(Writer, { foreignKey: "writerId" });
  notes = hasMany(Note, { as: "notable" });
  // A condition on attributes in the scope of a Model that refers back to this one needs no field's type.
  titled = hasMany(Note, { as: "notable", scope: (q) => q.where({ body: "x" }) });
}

export class Photo extends Model({ id: "integer", caption: "string" }) {
  notes = hasMany(Note, { as: "notable" });
}

export class Note extends Model({ id: "integer", notableType: "string", notableId: "integer", body: "string" }) {
  notable = belongsTo([Entry, Photo], { polymorphic: true });
}

export class Bio extends Model({ id: "integer", writerId: "integer" }) {
  writer = belongsTo(Writer);
}
