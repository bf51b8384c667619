import {
  type AnyModel,
  argumentError,
  CastError,
  countStatement,
  definePlugin,
  installRelationChecks,
  isSqlCount,
  IncompatibleRelation,
  InvalidModel,
  optionsArgument,
  refuseExtraArguments,
  prepareLoad,
  previewText,
  type RecordOfModel,
  Relation,
  type ResolvedModel,
} from "../kernel/index.js";

/** What every page of records has, counted or not. */
export interface BasePage<R> {
  /** The records of the page. */
  readonly records: R[];
  /** The page number, from 1. */
  readonly page: number;
  /** The page size used. */
  readonly perPage: number;
  /** Whether a next page exists. */
  readonly hasNext: boolean;
  /** Whether a previous page exists. */
  readonly hasPrevious: boolean;
}

/** A page of records, the result of `paginate` (which counts the matching rows unless given `count: false`). */
export interface Page<R> extends BasePage<R> {
  /** Total matching rows. */
  readonly total: number;
  /** Number of pages. */
  readonly totalPages: number;
}

/** A page of `paginate({ count: false })`: no count was made, so `total` and `totalPages` are absent. */
export interface UncountedPage<R> extends BasePage<R> {
  readonly total?: undefined;
  readonly totalPages?: undefined;
}

/** Options of `paginate`: numbers or query-string text; missing, null or empty means the first page and the default size. */
export interface PaginateOptions {
  page?: number | string | null;
  perPage?: number | string | null;
  /** `false` skips the count, leaving `total` and `totalPages` out. */
  count?: boolean;
}

// As integer attributes read text: an optional sign is allowed ("+2"; "-2" is then refused for being below 1).
const WHOLE_NUMBER = /^[+-]?\d+$/;

/**
 * Reads a page or page size from a number or query-string text; missing, null or empty gives the fallback. A whole
 * number above `max` is `max`, however large (`"99999999999999999999"` reads as 1e20, not a safe integer).
 */
function parsePositive(model: ResolvedModel, option: string, value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === null || value === "") return Math.min(fallback, max);
  const number = typeof value === "string" && WHOLE_NUMBER.test(value.trim()) ? Number(value) : value;
  // A page past the safe integers could not be told from its neighbours; a page size is capped, however large.
  const whole = max === Infinity ? Number.isSafeInteger(number) : Number.isInteger(number);
  if (typeof number !== "number" || !whole || number < 1) {
    // A page comes from the query string: refusing it is refusing the request, which the app answers with a 400.
    throw new CastError(`${model.name}.paginate: ${option} must be a whole number from 1, not ${previewText(value)}`, model.model, option, value);
  }
  return Math.min(number, max);
}

/**
 * A page-size setting of the Model: a whole number from 1 (`maxPerPage` may be Infinity, no cap), else
 * `InvalidModel` naming it: 0 gave empty pages, and a fraction or text a refusal that named no setting.
 */
function setting(model: ResolvedModel, name: keyof PaginationSettings): number {
  const value = (model.model as unknown as PaginationSettings)[name];
  if ((Number.isSafeInteger(value) && value >= 1) || (name === "maxPerPage" && value === Infinity)) return value;
  throw new InvalidModel(`${model.name}.${name} must be a whole number from 1, not ${previewText(value)}`);
}

/** The Relation ordered by its own order, then by primary key, so that pages never overlap. */
function stableOrder(relation: Relation): Relation {
  const key = relation.model.primaryKey;
  const { order } = relation.description;
  const orderedByKey = order.some((term) => term.kind === "attribute" && term.attribute === key);
  if (orderedByKey) return relation;
  return relation.with({ order: [...order, { kind: "attribute", attribute: key, direction: "asc" }] });
}

async function paginate(this: Relation, options?: PaginateOptions): Promise<Page<unknown> | UncountedPage<unknown>> {
  const model = this.model;
  const description = this.description;
  if (description.limit !== undefined || description.offset !== undefined) {
    throw new IncompatibleRelation(`${model.name}.paginate: the Relation already has a limit or offset; paginate sets both`);
  }
  refuseExtraArguments(`${model.name}.paginate`, arguments.length, 1, "give page, perPage and count in one object");
  const given = optionsArgument(`${model.name}.paginate`, options, ["page", "perPage", "count"]);
  if (given.count !== undefined && typeof given.count !== "boolean") throw argumentError(`${model.name}.paginate: count`, "a boolean", given.count);
  const perPage = parsePositive(model, "perPage", given.perPage, setting(model, "perPage"), setting(model, "maxPerPage"));
  const page = parsePositive(model, "page", given.page, 1, Infinity);
  // SQLite's OFFSET is a 64-bit integer: a page starting beyond it is refused.
  if (!isSqlCount((page - 1) * perPage)) {
    throw new CastError(`${model.name}.paginate: page takes a page whose first row is within SQLite's integers, not ${previewText(given.page)}`, model.model, "page", given.page);
  }
  const counting = given.count !== false;
  const hasPrevious = page > 1;
  if (description.none) return { records: [], page, perPage, ...(counting ? { total: 0, totalPages: 0 } : {}), hasNext: false, hasPrevious } as Page<unknown> | UncountedPage<unknown>;
  const pending = prepareLoad(this, "load");
  const relation = pending instanceof Promise ? await pending : pending;
  // Without a count, one extra row tells whether a next page exists.
  const pageRelation = stableOrder(relation).with({ limit: counting ? perPage : perPage + 1, offset: (page - 1) * perPage });
  // The preloads select the children of the page's rows: without the extra row read to tell `hasNext`.
  const plan = pageRelation.with({ limit: perPage }).plan();
  await relation.checkIncludes(plan);
  const loaded = await pageRelation.loadPlanned(plan, undefined, counting ? [countStatement(relation)] : []);
  const records = loaded.records.slice(0, perPage);
  await relation.preload(records, plan);
  if (!counting) return { records, page, perPage, hasNext: loaded.records.length > perPage, hasPrevious };
  const total = loaded.before[0] as number;
  const totalPages = Math.ceil(total / perPage);
  return { records, page, perPage, total, totalPages, hasNext: page < totalPages, hasPrevious };
}

/** The statics the pagination plugin gives the class it is registered on, and the Models below it. */
export interface PaginationSettings {
  /** Page size for `paginate` when none is given (25 unless set). */
  perPage: number;
  /** Upper cap on a requested page size (100 unless set). */
  maxPerPage: number;
}

/**
 * Pagination: `paginate({ page, perPage, count })` on any Relation or Model. The count, the page and the page's
 * preloads (`includes`) are sent in one round trip (one D1 batch); `count: false` skips the count. Pages follow
 * the Relation's order, then the primary key. `perPage` defaults to the Model's `perPage` and is capped at its `maxPerPage`.
 */
export const pagination = definePlugin({
  name: "pagination",
  relationMethods: { paginate },
  setup(base: Partial<PaginationSettings>) {
    installRelationChecks();
    // A class that set its own before registering the plugin keeps them.
    if (!("perPage" in base)) base.perPage = 25;
    if (!("maxPerPage" in base)) base.maxPerPage = 100;
  },
});

declare module "../kernel/index.js" {
  interface PluginRelationMethods<R> {
    /** One page of the matching records, counted (`total`, `totalPages`) unless given `count: false`. */
    paginate(options: PaginateOptions & { count: false }): Promise<UncountedPage<R>>;
    paginate(options?: PaginateOptions & { count?: true }): Promise<Page<R>>;
    paginate(options: PaginateOptions): Promise<Page<R> | UncountedPage<R>>;
  }

  interface PluginStatics<A> extends PaginationSettings {
    /** `all().paginate(options)`. */
    paginate<M extends AnyModel>(this: M, options: PaginateOptions & { count: false }): Promise<UncountedPage<RecordOfModel<M>>>;
    paginate<M extends AnyModel>(this: M, options?: PaginateOptions & { count?: true }): Promise<Page<RecordOfModel<M>>>;
    paginate<M extends AnyModel>(this: M, options: PaginateOptions): Promise<Page<RecordOfModel<M>> | UncountedPage<RecordOfModel<M>>>;
  }
}
