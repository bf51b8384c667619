/**
 * The `belongsTo` of each reference of `g model`, as Rails' `rails g model Link user:references` writes
 * `belongs_to :user`: `user = belongsTo(User)` (`{ optional: true }` for a reference marked `?`), the parent's Model
 * imported from its file in `src/models`. A field initializer reads the imported class only when a record is made,
 * after every module has loaded, so the parent's file may import this one in turn (`links = hasMany(Link)`): either
 * may load first. A polymorphic reference's parents are Models the generator cannot know: its declaration is
 * written commented out, for the app to list them.
 */
import { camelize } from "../kernel/index.js";
import { tableize } from "../plugins/table-naming.js";
import { type ColumnSpec, columnsOf, referenceName, refuseRecordMemberName } from "./columns.js";
import { CliError } from "./errors.js";
import { modelOfTable } from "./declared-models.js";
import { modelImportPath, type ModelNames, modelNames } from "./model-names.js";
import { isWordsName } from "./name-words.js";
import { PATHS, type Project } from "./project.js";
import { typeScriptLiteral } from "./typescript-text.js";

/** What a generated Model declares besides its class, and notes to print about it. */
export interface ModelBody {
  /** What it imports from recordflare (`belongsTo`). */
  readonly libraryImports: readonly string[];
  /** Its imports of other Models: `import { User } from "./user.js";`. */
  readonly modelImports: readonly string[];
  /** The lines of its class body. */
  readonly fields: readonly string[];
  readonly notes: readonly string[];
}

// The parent Model of a reference: its class, the file it is imported from (none for the Model's own table), and
// whether that file is still to be written.
interface Parent {
  readonly className: string;
  readonly fileName?: string;
  readonly missing?: boolean;
}

// What one reference adds to the Model: lines of its body, an import, a note.
interface Declaration {
  readonly fields: readonly string[];
  readonly modelImport?: string;
  readonly note?: string;
}

/**
 * The declarations of the references among `specs`, the columns of the Model `model`. Throws `CliError` naming the
 * argument when the association's name would be that of a record method or of another attribute of the table.
 */
export function belongsToDeclarations(project: Project, model: ModelNames, specs: readonly ColumnSpec[]): ModelBody {
  const attributes = ["id", ...specs.flatMap(columnsOf), "created_at", "updated_at"].map(camelize);
  const declarations = specs
    .filter((spec) => spec.type === "references")
    .map((spec) => {
      const name = camelize(referenceName(spec));
      refuseRecordMemberName(spec.source, "belongsTo", name);
      if (attributes.includes(name)) throw new CliError(`Column "${spec.source}": its belongsTo ${name} would have the name of the attribute ${name}; choose another name.`);
      return declarationOf(project, model, spec, name);
    });
  const fields = declarations.flatMap((declaration) => declaration.fields);
  return {
    // Imported for a polymorphic declaration too, so that uncommenting it is all it takes.
    libraryImports: fields.length === 0 ? [] : ["belongsTo"],
    modelImports: [...new Set(declarations.flatMap((declaration) => declaration.modelImport ?? []))],
    fields,
    notes: declarations.flatMap((declaration) => declaration.note ?? []),
  };
}

// The `belongsTo` named `name` of one reference, commented out for a polymorphic one; a note alone when it has no Model.
function declarationOf(project: Project, model: ModelNames, spec: ColumnSpec, name: string): Declaration {
  const modelPath = `${PATHS.models}/${model.fileName}`;
  const optional = spec.required ? "" : "optional: true";
  if (spec.typeColumn !== undefined) {
    return {
      fields: [`// List the Models a ${name} may be, then uncomment:`, `// ${name} = belongsTo([], { polymorphic: true${optional && `, ${optional}`} });`],
      note: `${modelPath}: list the Models a ${name} may be in its belongsTo, then uncomment it`,
    };
  }
  const parent = parentModel(project, model, spec);
  const noModel = `no Model in ${PATHS.models} has the table ${spec.parentTable}`;
  if (parent === undefined) return { fields: [], note: `${noModel}: once one has, declare ${name} = belongsTo(<that Model>) in ${modelPath}` };
  const declaration = `export class ${parent.className} extends ApplicationRecord(${typeScriptLiteral(spec.parentTable)}) {}`;
  return {
    fields: [`${name} = belongsTo(${parent.className}${optional && `, { ${optional} }`});`],
    modelImport: parent.fileName === undefined ? undefined : `import { ${parent.className} } from "${modelImportPath(parent.fileName)}";`,
    note: parent.missing ? `${noModel}: write ${declaration} in ${PATHS.models}/${parent.fileName}, which ${modelPath} imports` : undefined,
  };
}

/**
 * The Model a reference points at: the Model being generated for its own table, the one a Model file declares on
 * its table, else the Model named after the reference (`User` for `user:references`), whose file is still to be
 * written; none for a table in braces that no Model has.
 */
function parentModel(project: Project, model: ModelNames, spec: ColumnSpec): Parent | undefined {
  const table = spec.parentTable!;
  if (table.toLowerCase() === model.table.toLowerCase()) return { className: model.className };
  const declared = modelOfTable(project, table);
  if (declared) return declared;
  const name = referenceName(spec);
  if (!isWordsName(name, "_") || tableize(name) !== table) return undefined;
  return { ...modelNames(name), missing: true };
}
