import type { Attribute } from "../records/attributes.js";
import type { ResolvedModel } from "../records/resolve.js";
import type { ParamSource } from "../sql/statement.js";

/**
 * What a write of one shape (its kind and the attributes it binds, in order) always sends: its SQL and sources, and
 * how it is retried after a transient error, worked out once per shape rather than on each save.
 */
export interface WriteShape {
  readonly sql: string;
  readonly sources: readonly (ParamSource | undefined)[];
  /** Whether it may be sent again (when the value at `keyAt`, if any, is not NULL). */
  readonly idempotent: boolean;
  /** The SQL sent on a retry, when it differs. */
  readonly retrySql: string | undefined;
  /** Where its values hold the key it needs to be idempotent (an INSERT's), or -1. */
  readonly keyAt: number;
}

/** A node of a Model's tree of write shapes: the shape of the attributes on the path to it, once compiled. */
export interface ShapeNode {
  shape: WriteShape | undefined;
  readonly next: Map<Attribute, ShapeNode>;
}

const shapesByModel = new WeakMap<ResolvedModel, Map<string, ShapeNode>>();

const newNode = (): ShapeNode => ({ shape: undefined, next: new Map() });

/**
 * Where the shape of a Model's write of `kind` binding `attributes` is kept: found by following the attributes
 * themselves, so that a save (the hot path of writes) makes no key to look its SQL up.
 */
export function shapeNode(model: ResolvedModel, kind: string, attributes: readonly Attribute[]): ShapeNode {
  let roots = shapesByModel.get(model);
  if (!roots) shapesByModel.set(model, (roots = new Map()));
  let node = roots.get(kind);
  if (!node) roots.set(kind, (node = newNode()));
  for (const attribute of attributes) {
    let child: ShapeNode | undefined = node.next.get(attribute);
    if (!child) node.next.set(attribute, (child = newNode()));
    node = child;
  }
  return node;
}
