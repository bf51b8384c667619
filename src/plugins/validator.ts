import type { SaveOperation } from "../kernel/index.js";
import type { AllowNilOrBlank } from "./validation-options.js";

/** What a check's `validate` receives for one value of one record. */
export interface ValidatorContext<Options = any> {
  /** The record being saved. */
  readonly record: any;
  /**
   * The Model whose `validates` declared the check: the record's class or a parent of it. A uniqueness check looks
   * among its rows, as Rails' does, so a check declared on an inheritance root covers every type in the table.
   */
  readonly model: Function & { readonly tableName: string };
  /** The attribute checked. */
  readonly attribute: string;
  /** The attribute's value (never one that `allowNil` or `allowBlank` lets through: the check is not called then). */
  readonly value: unknown;
  /** The check's options in their long form, with the declaration's `allowNil`, `allowBlank` and `message` merged in. */
  readonly options: Options & CommonCheckOptions;
  /** What the save is doing: `"create"` or `"update"`. */
  readonly operation: SaveOperation;
  /** Adds an error to the attribute: `type` (such as `"invalid"`) and a default message the `message` option replaces. */
  report(type: string, message: string): void;
}

/** The options every check takes in its long form, and a declaration gives all its checks. */
export interface CommonCheckOptions extends AllowNilOrBlank {
  /** Replaces the check's own messages. */
  message?: string;
}

/**
 * A check that `validates` offers as an option (`email: true`): how its option is read when declared, and how it
 * checks a value when a record is saved.
 */
export interface Validator<Options extends object = any> {
  /**
   * Whether the option's value as given (never `false`, which turns a check off) is one the check takes; the
   * problem in words (`"must be true or an object"`), or undefined. Without it, `true` and objects are taken.
   */
  readonly check?: (given: unknown) => string | undefined;
  /** The option's value in its long form (an object). Without it, `true` reads as `{}` and an object as itself. */
  readonly options?: (given: unknown) => Options;
  /**
   * The other attributes the check reads, by its long-form options (uniqueness's `scope`): each must be one of the
   * Model's, refused at its first use as the declared attribute is.
   */
  readonly attributesRead?: (options: Options) => readonly string[];
  /** Checks one value, calling `report` for each problem. May be async (a query). */
  readonly validate: (context: ValidatorContext<Options>) => void | Promise<void>;
}
