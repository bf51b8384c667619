import { ApplicationRecord } from "./application-record.js";

export class Note extends ApplicationRecord("notes") {
  static {
    // A presence check written as a hook, the way a plugin adds validations.
    this.hook("record:validate", ({ record }) => {
      if (!record.title?.trim()) record.errors.add("title", "blank", "can't be blank");
    });
  }
}
