/**
 * The plugin examples of the guide ("Writing a plugin": audit log, readonly attributes with per-Model state, a
 * validator of your own, the shape of a plugin, an attribute type, wrapping a method), copied verbatim apart from the import path. The guide's tests
 * (kernel/plugin-examples.test.ts, kernel/plugin-api.test.ts and the feature files) run them against real D1: if one fails, fix the guide with the code.
 */
import { defineValidator, type ValidatorOption } from "../../src/index.js";
import { type AttributeTypeDefinition, attributesOf, declareModelState, defineAttributeType, defineModelState, definePlugin, modelState } from "../../src/plugin.js";

// ---- docs/guide/plugins.md, "Example: audit log" ----------------------------------------------------------

export interface AuditEntry {
  model: string;
  recordId: unknown;
  action: "create" | "update" | "destroy";
  /** Attribute name to [old, new]; filtered attributes show as "[FILTERED]". */
  changes: Record<string, [unknown, unknown]>;
}

const unaudited = defineModelState(
  "audit-log:unaudited",
  () => new Set<string>(),
  (parent) => new Set(parent),
);

/** Leaves attributes out of a Model's audit entries (and out of its subclasses'). */
export function auditIgnore(model: Function, ...names: string[]): void {
  const ignored = modelState(model, unaudited);
  for (const name of names) ignored.add(name);
}

/** Reports each save that changed something, and each destroy, to `write`. */
export function auditLog(write: (entry: AuditEntry) => void | Promise<void>) {
  return definePlugin({
    name: "audit-log",
    hooks: {
      async "record:afterSave"({ record, operation }) {
        const model = record.constructor;
        const ignored = modelState(model, unaudited);
        const saved = record.savedChanges();
        const changes: AuditEntry["changes"] = {};
        for (const attribute of attributesOf(model)) {
          const change = saved[attribute.name];
          if (!change || ignored.has(attribute.name)) continue;
          changes[attribute.name] = attribute.filtered ? ["[FILTERED]", "[FILTERED]"] : change;
        }
        if (Object.keys(changes).length === 0) return;
        const recordId = record.readAttribute(model.primaryKey);
        await write({ model: model.name, recordId, action: operation, changes });
      },
      async "record:afterDestroy"({ record }) {
        const model = record.constructor;
        const recordId = record.readAttribute(model.primaryKey);
        await write({ model: model.name, recordId, action: "destroy", changes: {} });
      },
    },
  });
}

// ---- docs/guide/plugins.md, "Per-Model state" (readonly attributes) -----------------------------------------

const readonlyNames = defineModelState(
  "readonly-attributes:names",
  () => [] as string[],
  (parent) => [...parent],
);

/** Declares attributes that a saved record keeps: a save that changes one is refused. */
export function attrReadonly(model: Function, ...names: string[]): void {
  declareModelState(model, readonlyNames).push(...names);
}

export const readonlyAttributes = definePlugin({
  name: "readonly-attributes",
  appliesTo: (model) => modelState(model, readonlyNames).length > 0,
  hooks: {
    "record:validate"({ record, operation }) {
      if (operation !== "update") return;
      for (const name of modelState(record.constructor, readonlyNames)) {
        if (record.isAttributeChanged(name)) record.errors.add(name, "readonly", "can't be changed");
      }
    },
  },
});

// ---- docs/guide/models.md, "Validators of your own" --------------------------------------------------------

declare module "../../src/index.js" {
  interface ValidatorOptions<T> {
    /** An email address, at `domain` when given. */
    email?: ValidatorOption<{ domain?: string }>;
  }
}

export const email = defineValidator<{ domain?: string }>("email", {
  check: (given) => {
    if (given === true) return undefined;
    const { domain, allowNil, allowBlank, message, ...unknown } = given as Record<string, unknown>;
    const [typo] = Object.keys(unknown);
    if (typo) return `unknown option ${typo} (options: domain, allowNil, allowBlank, message)`;
    return domain === undefined || typeof domain === "string" ? undefined : "domain: must be a string";
  },
  validate: ({ value, options, report }) => {
    if (typeof value !== "string" || !/^[^@\s]+@[^@\s]+$/.test(value)) return report("invalid_email", "is not an email address");
    if (options.domain !== undefined && !value.endsWith(`@${options.domain}`)) report("wrong_domain", `is not at ${options.domain}`);
  },
});

// ---- docs/guide/plugins.md, "Writing a plugin" (the shape of a plugin) ------------------------------------

export const trimNames = definePlugin({
  name: "trim-names", // registering the same name twice on a class chain is a no-op
  hooks: {
    "attribute:assign"(context) {
      if (context.attribute.name === "name" && typeof context.value === "string") context.value = context.value.trim();
    },
  },
  relationMethods: {
    // `this` is the Relation; also becomes a static of the class the plugin is registered on
    newestFirst(this: any) {
      return this.reorder({ createdAt: "desc" });
    },
  },
  setup(model) {
    // runs once, with the class the plugin is registered on: add statics or settings here
  },
  // optional: whether the hooks run for a Model at all (asked once per Model, at its first use)
  appliesTo: (model) => attributesOf(model).some((attribute) => attribute.name === "name"),
});

// ---- docs/guide/plugins.md, "Adding an attribute type" -----------------------------------------------------

/** An amount of money, held as whole cents so that no sum is off by a fraction. */
export interface Money {
  readonly cents: number;
}

const AMOUNT = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** Reads `{ cents }` or text such as "12.50"; anything else (a float, "12.505") is refused. */
function castMoney(value: unknown): Money | undefined {
  if (typeof value === "object" && value !== null && Number.isSafeInteger((value as Money).cents)) return { cents: (value as Money).cents };
  const match = typeof value === "string" ? AMOUNT.exec(value.trim()) : null;
  if (!match) return undefined;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? { cents: match[1] ? -cents : cents } : undefined;
}

const moneyText = ({ cents }: Money): string => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`;

// One definition, made once: registering the plugin on another base class defines the same one again, a no-op.
const money: AttributeTypeDefinition<Money> = {
  cast: castMoney,
  toDatabase: (amount) => amount.cents,
  fromDatabase: (stored) => ({ cents: Number(stored) }),
  // Integer cents order as the amounts do, so gt, lt and between compare them in SQL.
  comparable: true,
  toJSON: moneyText,
};

export const moneyType = definePlugin({
  name: "money-type",
  setup() {
    defineAttributeType("money", money);
  },
});

declare module "../../src/index.js" {
  interface AttributeTypeMap {
    money: Money;
  }
  interface AttributeInputMap {
    money: string;
  }
  interface AttributeJsonMap {
    money: string;
  }
}

// ---- docs/guide/plugins.md, "Wrapping a method" ------------------------------------------------------------

/** Refuses an `updateAll` that sets any of these attributes: they change one record at a time, with its checks. */
export function frozenInBulk(...names: string[]) {
  return definePlugin({
    name: `frozen-in-bulk:${names.join(",")}`,
    wrap: {
      relation: {
        updateAll: (next) =>
          async function (values: Record<string, unknown>) {
            const frozen = names.filter((name) => name in values);
            if (frozen.length > 0) throw new TypeError(`${this.model.name}.updateAll: ${frozen.join(", ")} cannot be set in bulk`);
            return next.call(this, values);
          },
      },
    },
  });
}
