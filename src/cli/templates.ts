/** The text of the files the Model generator writes besides migrations and the schema. */
import type { ModelNames } from "./model-names.js";
import { typeScriptLiteral } from "./typescript-text.js";

/** `src/models/application-record.ts`: the app's base class, written once and then the app's to edit. */
export const APPLICATION_RECORD_TEMPLATE = `import { ActiveRecord, defineApplicationRecord } from "recordflare";
import { schema } from "../db/schema.js";

/** The app's base class: settings and plugins shared by every Model. */
export class ApplicationBase extends ActiveRecord {
  static override binding = "DB";
}

/** \`class User extends ApplicationRecord("users") {}\` */
export const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);
`;

/** `src/models/<model>.ts`: a Model class of one table. */
export function modelTemplate(names: ModelNames): string {
  return `import { ApplicationRecord } from "./application-record.js";

export class ${names.className} extends ApplicationRecord(${typeScriptLiteral(names.table)}) {}
`;
}
