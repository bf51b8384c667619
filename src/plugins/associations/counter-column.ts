import { attributesOf, camelize, InvalidModel, underscore } from "../../kernel/index.js";

/** The base classes the `counterCaches` plugin is registered on: a `counterCache` below none of them would do nothing. */
const servedBases = new WeakSet<Function>();

/** Notes that the `counterCaches` plugin serves the Models below `base`. */
export function serveCounterCaches(base: Function): void {
  servedBases.add(base);
}

function isServed(model: Function): boolean {
  for (let current: unknown = model; typeof current === "function"; current = Object.getPrototypeOf(current)) {
    if (servedBases.has(current)) return true;
  }
  return false;
}

/** The attribute types a counter may have: SQLite adds to them, and `size()` reads them as a count. */
const COUNTER_TYPES = new Set(["integer", "real"]);

/**
 * The parent's attribute a `belongsTo`'s `counterCache` keeps: the name given, or for `true` the child's table in
 * camelCase plus `Count` (`comments` gives `commentsCount`, column `comments_count`; Rails pluralizes the class
 * name, which is the table's name unless the Model sets another). Checked at the child's first use: `InvalidModel`
 * naming the Models and the column when the parent lacks it or it is not a number, when the name is empty, or when
 * the `counterCaches` plugin is not registered (the option would do nothing).
 */
export function counterAttributeOf(owner: Function, name: string, target: Function, option: true | string): string {
  const where = `${owner.name}.${name} (belongsTo)`;
  // An empty name would be read as a column "" the parent lacks, which hides the mistake in the option itself.
  if (option === "") throw new InvalidModel(`${where}: counterCache takes true or the name of an integer attribute of ${target.name}, not ""`);
  if (!isServed(owner)) throw new InvalidModel(`${where}: counterCache needs the counterCaches plugin (in the default set); register it on the base class with this.use(counterCaches)`);
  const counter = option === true ? `${camelize(underscore((owner as unknown as { readonly tableName: string }).tableName))}Count` : option;
  const attribute = attributesOf(target).find((each) => each.name === counter);
  if (!attribute) {
    throw new InvalidModel(
      `${where}: counterCache needs ${target.name}.${counter} (column ${underscore(counter)}), which ${target.name} does not have; add the column in a migration (integer, NOT NULL DEFAULT 0), or name the counter with counterCache: "<attribute>"`,
    );
  }
  if (!COUNTER_TYPES.has(attribute.typeName)) {
    throw new InvalidModel(`${where}: counterCache ${target.name}.${counter} (column ${attribute.column}) must be an integer attribute, not ${attribute.typeName}`);
  }
  return counter;
}
