/** The text of the files the Model generator writes besides migrations and the schema. */
import type { ModelBody } from "./belongs-to-declarations.js";
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

/** `src/models/<model>.ts`: a Model class of one table, with what its body declares (see `belongsToDeclarations`). */
export function modelTemplate(names: ModelNames, body: Omit<ModelBody, "notes">): string {
  const imports = [
    ...(body.libraryImports.length === 0 ? [] : [`import { ${body.libraryImports.join(", ")} } from "recordflare";`]),
    'import { ApplicationRecord } from "./application-record.js";',
    ...body.modelImports,
  ];
  const classBody = body.fields.length === 0 ? "{}" : `{\n${body.fields.map((field) => `  ${field}\n`).join("")}}`;
  return `${imports.join("\n")}

export class ${names.className} extends ApplicationRecord(${typeScriptLiteral(names.table)}) ${classBody}
`;
}
