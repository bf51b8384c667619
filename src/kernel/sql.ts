/** A reference to an attribute's column inside an `sql` fragment, made by `column()`. */
export class ColumnReference {
  /** @internal */
  constructor(readonly attribute: string) {}
}

/** A piece of SQL made with the `sql` tagged template; every interpolated value is bound, never spliced. */
export class SqlFragment {
  /** @internal */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** Prints the fragment with `?` for its bound values. */
  toString(): string {
    return this.strings.reduce((text, part, index) => text + (index > 0 ? "?" : "") + part, "");
  }
}

/**
 * Makes an SQL fragment for `where` and `order`. Interpolated values are bound as parameters;
 * `column('<attribute>')` and nested fragments are spliced as SQL.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  return new SqlFragment([...strings], values);
}

/** Names an attribute's column inside an `sql` fragment: `sql\`${column('createdAt')} > ${date}\``. */
export function column(attribute: string): ColumnReference {
  return new ColumnReference(attribute);
}
