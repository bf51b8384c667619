import {
  type AnyModel,
  argumentError,
  type Attribute,
  type AttributeName,
  type AttributesOfModel,
  attributesOf,
  databaseOfModel,
  declareModelState,
  declareRowClasses,
  definePlugin,
  defineModelState,
  InvalidModel,
  isPlainObject,
  modelState,
  optionsArgument,
  type PluginMethod,
  previewText,
  quoteIdentifier,
  RecordflareError,
  type Relation,
  SqlFragment,
} from "../kernel/index.js";

/**
 * A type names no class of its Model's hierarchy, or a class that is not the Model or one of its subclasses (Rails'
 * `SubclassNotFound`): nothing is made of a row read with it, and nothing is written of a write that would store it.
 */
export class SubclassNotFound extends RecordflareError {
  override name = "SubclassNotFound";
}

/** Options of `inheritance`. */
export interface InheritanceOptions<A = Record<string, unknown>> {
  /** The string attribute that stores each row's type; `type` by default (Rails' `inheritance_column`). */
  column?: AttributeName<A>;
}

/** What a Model that stores its subclasses in one table declared: its column and its types, by stored value. */
interface Inheritance {
  readonly root: Function;
  readonly column: string;
  readonly types: () => Record<string, Function>;
}

/** The declaration a Model made or inherited (a holder, so that declaring is a write to the Model's own copy). */
const INHERITANCE = defineModelState<{ declared?: Inheritance }>("inheritance", () => ({}), (holder) => ({ ...holder }));

/** Whether any Model declared inheritance: until one does, `build` pays nothing for this plugin. */
let anyDeclared = false;

/** Each Model's type value and the values of it and its subclasses, read once from the declaration. */
const resolvedTypes = new WeakMap<Function, Map<string, Function>>();

/** Whether `Class` is `of` or one of its subclasses: the classes whose rows a query of `of` reads. */
const isClassOrSubclass = (Class: Function, of: Function) => Class === of || Class.prototype instanceof of;

function inheritanceOf(model: Function): Inheritance | undefined {
  return modelState(model, INHERITANCE).declared;
}

/** The attribute that stores each row's type; undefined only in a declaration that `model:finalize` refuses. */
function typeAttributeOf(inheritance: Inheritance, model: Function): Attribute | undefined {
  return attributesOf(model).find((each) => each.name === inheritance.column);
}

/** The declaration's types, checked: each a string naming the root or one of its subclasses, each class once. */
function typesOf(inheritance: Inheritance): Map<string, Function> {
  const known = resolvedTypes.get(inheritance.root);
  if (known) return known;
  const { root } = inheritance;
  const declared: unknown = inheritance.types();
  if (typeof declared !== "object" || declared === null || Array.isArray(declared)) {
    throw new InvalidModel(`${root.name}.inheritance: the types function returns an object of stored type to Model class, not ${previewText(declared)}`);
  }
  const types = new Map<string, Function>();
  for (const [value, Class] of Object.entries(declared)) {
    if (typeof Class !== "function" || !isClassOrSubclass(Class, root)) {
      throw new InvalidModel(`${root.name}.inheritance: type ${previewText(value)} names ${typeof Class === "function" ? Class.name : previewText(Class)}, which is not ${root.name} or a subclass of it`);
    }
    if ([...types.values()].includes(Class)) throw new InvalidModel(`${root.name}.inheritance: ${Class.name} is given two types`);
    if (value === "") throw new InvalidModel(`${root.name}.inheritance: a type is the empty string`);
    types.set(value, Class);
  }
  resolvedTypes.set(root, types);
  return types;
}

/** The type a class stores: its value in the declaration, or null for the root when it has none. */
function typeOfClass(inheritance: Inheritance, Class: Function): string | null {
  for (const [value, each] of typesOf(inheritance)) if (each === Class) return value;
  if (Class === inheritance.root) return null;
  throw new InvalidModel(`${Class.name}: it shares ${inheritance.root.name}'s table but is not one of its inheritance types; add it to ${inheritance.root.name}.inheritance`);
}

/** The type values of a class and its subclasses: the rows a query of that class reads. */
function typesWithin(inheritance: Inheritance, Class: Function): string[] {
  return [...typesOf(inheritance)].filter(([, each]) => isClassOrSubclass(each, Class)).map(([value]) => value);
}

/**
 * The class a type names, refused unless it is `modelClass` or a subclass of it: the one rule for the type of a row
 * read, of a record built and of every write. An `sql` fragment is refused: its value is known only once written.
 */
function classOfType(inheritance: Inheritance, modelClass: Function, type: unknown): Function {
  if (type instanceof SqlFragment) {
    throw new SubclassNotFound(`${modelClass.name}.${inheritance.column}: the type is an sql fragment, which cannot be checked to name ${modelClass.name} or a subclass of it; give the type's value`);
  }
  const Class = type === null ? inheritance.root : typeof type === "string" ? typesOf(inheritance).get(type) : undefined;
  if (Class === undefined) {
    throw new SubclassNotFound(`${modelClass.name}.${inheritance.column}: the type ${previewText(type)} names none of ${inheritance.root.name}'s inheritance types`);
  }
  if (!isClassOrSubclass(Class, modelClass)) {
    throw new SubclassNotFound(`${modelClass.name}.${inheritance.column}: the type ${previewText(type)} is ${Class.name}, which is not ${modelClass.name} or a subclass of it`);
  }
  return Class;
}

/** `build` with a type among the attributes makes a record of the class it names (Rails' `new(type: "Admin")`). */
function wrapBuild(build: (this: Function, ...args: unknown[]) => object) {
  // Every argument is passed on, so that build refuses those it does not take.
  return function (this: Function, ...args: unknown[]): object {
    const attributes = args[0];
    // Anything but a plain object is build's to refuse, with its own message.
    if (!anyDeclared || !isPlainObject(attributes)) return build.apply(this, args);
    const database = databaseOfModel(this);
    const Class: Function = database ? Object.getPrototypeOf(this) : this;
    const inheritance = inheritanceOf(Class);
    const type = inheritance && attributes[inheritance.column];
    if (!inheritance || type === undefined || type === typeOfClass(inheritance, Class)) return build.apply(this, args);
    const Subclass = classOfType(inheritance, Class, type);
    const target = database ? database.model(Subclass) : Subclass;
    return build.apply(target as Function, args);
  };
}

/**
 * Refuses a type that `updateAll` would set outside the Relation's Model. Undefined is left to `updateAll`, which
 * refuses it for every attribute, as is anything but a plain object.
 */
function checkTypeSet(relation: Relation, attributes: unknown): void {
  const modelClass = relation.model.model;
  const inheritance = anyDeclared ? inheritanceOf(modelClass) : undefined;
  if (!inheritance || !isPlainObject(attributes) || !Object.hasOwn(attributes, inheritance.column)) return;
  const type = attributes[inheritance.column];
  if (type !== undefined) classOfType(inheritance, modelClass, type);
}

/**
 * Single-table inheritance, opt-in per Model: `this.inheritance(() => ({ Admin, Guest }))` on the Model whose table
 * the subclasses share stores each record's class in its `type` column (the key naming it; the declaring Model's own
 * records store NULL unless it is given a key too). A row becomes a record of the class its type names, a query of a
 * subclass reads only its rows and its subclasses', and a record of a subclass is written with its type. No write
 * stores a type outside its Model, and a subclass's upsert updates only a row of its own type. Registered after
 * `bulkWrites`, whose `updateAll` and `toUpdateAll` it wraps.
 */
export const singleTableInheritance = definePlugin({
  name: "singleTableInheritance",
  setup(base: Record<string, unknown>) {
    base["inheritance"] = function (this: Function, types: unknown, options?: unknown) {
      if (typeof types !== "function") throw new TypeError(`${this.name}.inheritance takes a function returning the types, such as () => ({ Admin, Guest })`);
      const { column = "type" } = optionsArgument(`${this.name}.inheritance`, options as { column?: unknown } | undefined, ["column"]);
      if (typeof column !== "string") throw argumentError(`${this.name}.inheritance: column`, "an attribute name", column);
      if (inheritanceOf(this)) throw new InvalidModel(`${this.name}.inheritance: ${inheritanceOf(this)!.root.name} declares it already`);
      const inheritance = (declareModelState(this, INHERITANCE).declared = { root: this, column, types: types as Inheritance["types"] });
      declareRowClasses(this, () => typesOf(inheritance).values());
      anyDeclared = true;
    };
  },
  wrap: {
    static: { build: wrapBuild },
    // Not a write:plan hook, though it sees every write: it would make each save of these Models a planned one (and
    // every default Worker bundle the planning), and a destroy would load their dependent rows to delete them one by
    // one. Records' saves and bulk inserts are checked by record:write, the values updateAll sets here.
    relation: {
      // Every argument is passed on: the method refuses those it does not take (a condition given by mistake).
      updateAll: (updateAll: PluginMethod) => async function (this: Relation, ...args: unknown[]) {
        checkTypeSet(this, args[0]);
        return updateAll.apply(this, args);
      },
      toUpdateAll: (toUpdateAll: PluginMethod) => function (this: Relation, ...args: unknown[]) {
        checkTypeSet(this, args[0]);
        return toUpdateAll.apply(this, args);
      },
    },
  },
  appliesTo: (model: Function) => inheritanceOf(model) !== undefined,
  hooks: {
    "model:finalize"(model: Function) {
      // Runs for every Model (before appliesTo is asked).
      const inheritance = inheritanceOf(model);
      if (!inheritance) return;
      const attribute = typeAttributeOf(inheritance, model);
      if (attribute?.typeName !== "string") {
        throw new InvalidModel(`${model.name}.inheritance: ${inheritance.column} is not a string attribute; it stores each row's type`);
      }
      typeOfClass(inheritance, model);
      // A subclass's upsert writes its rows as records of it: a row of another type is no record of it to update.
      if (model !== inheritance.root) attribute.matchedOnUpsert = true;
    },
    "record:initialize"({ record }) {
      const inheritance = inheritanceOf(record.constructor)!;
      const type = typeOfClass(inheritance, record.constructor);
      if (type !== null) record.writeAttribute(inheritance.column, type);
    },
    "record:write"({ record, values }) {
      // A row stored with a type outside the record's class could no longer be read as its record, or not at all.
      // Each row of a bulk insert is built as a record, so its type is checked here too.
      const inheritance = inheritanceOf(record.constructor)!;
      if (values.has(inheritance.column)) classOfType(inheritance, record.constructor, values.get(inheritance.column));
    },
    "record:class"(context) {
      const inheritance = inheritanceOf(context.modelClass)!;
      const attribute = typeAttributeOf(inheritance, context.modelClass)!;
      // A row read without its type column (select) stays a record of the Model queried.
      if (!Object.hasOwn(context.row, attribute.column)) return;
      context.modelClass = classOfType(inheritance, context.modelClass, context.row[attribute.column]);
    },
    "relation:where"({ model, parts }) {
      const inheritance = inheritanceOf(model.model)!;
      if (model.model === inheritance.root) return;
      const attribute = model.byName.get(inheritance.column)!;
      const types = typesWithin(inheritance, model.model);
      const list = parts.params.bind(JSON.stringify(types), { kind: "list", attribute });
      parts.where.push(`${quoteIdentifier(attribute.column)} IN (SELECT value FROM json_each(${list}))`);
    },
  },
});

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Stores this Model's subclasses in its table (single-table inheritance): `types` returns each subclass by the
     * value its rows store in `column` (`type` by default), as `() => ({ Admin, Guest })`; a function, so that the
     * subclasses declared below the Model can be named. This Model's own records store NULL unless it is listed too.
     */
    inheritance<M extends AnyModel>(this: M, types: () => Record<string, M>, options?: InheritanceOptions<AttributesOfModel<M>>): void;
  }
}
