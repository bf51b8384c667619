import { ApplicationRecord } from "./application-record.js";

export class Note extends ApplicationRecord("notes") {
  static {
    this.validates("title", { presence: true, length: { maximum: 200 } });
    this.beforeSave((note) => {
      note.title = note.title.trim();
    });
  }
}
