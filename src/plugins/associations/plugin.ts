import {
  type AnyModel,
  type AssociationName,
  definePlugin,
  installRelationChecks,
  type IncludeObject,
  type IncludesBelow,
  type IncludeSpec,
  includePaths,
  type JsonAttributes,
  type LoadedAssociation,
  optionsArgument,
  refuseExtraArguments,
  type RecordOfModel,
  type Relation,
  type RelationOf,
} from "../../kernel/index.js";
import { associationRelationWraps } from "./association-relation.js";
import { forwardedHooks, forwardedMethods, installedWork, noAssociations, workApplies } from "./installation.js";

/** The associations `asJson({ include })` nests: what `includes` takes (a name, a list, a nested object). */
export type JsonInclude<R> = IncludesBelow<R>;

type Owner = Record<string, any> & { toJSON(): Record<string, unknown> };

/**
 * Preloads the named associations of the loaded records in the batch of their query; an object names what to
 * include below an association: `includes("user", { posts: ["comments"] })`. A name that is no association is
 * refused when the Relation loads, before any query is sent.
 */
function includes<R extends Relation>(this: R, ...names: IncludeSpec[]): R {
  const paths = includePaths(`${this.model.name}.includes`, names, "");
  return this.with({ includes: [...new Set([...this.description.includes, ...paths])] });
}

/** `asJson()` of a record while no Model declares associations: its JSON, nothing to nest. */
function asJson(this: Owner, options?: { include?: unknown }): Record<string, unknown> {
  const where = `${this.constructor.name}.asJson`;
  refuseExtraArguments(where, arguments.length, 1);
  const given = optionsArgument(where, options, ["include"]);
  const work = installedWork();
  if (work) return work.associations.methods["asJson"]!.call(this, given);
  const { include } = given;
  if (include === undefined || (Array.isArray(include) && include.length === 0)) return this.toJSON();
  throw noAssociations(this.constructor, "asJson");
}

/**
 * Associations: `hasMany`, `hasOne` and `belongsTo` declared as instance fields. Children built through an
 * association are saved with their owner in one atomic batch when the owner's key is known before insert (text
 * keys); with database-assigned keys, each level is written in its own batch after the owner. `dependent`
 * strategies run after every before-destroy callback, in the owner's destroy batch. `includes` preloads every
 * association it names, nested ones too, in the batch of the Relation's own SELECT: one round trip, and a second
 * one for the owners whose keys a preload's subquery did not choose (a query SQLite may answer otherwise).
 *
 * What it does is brought by the declarations (see installation.ts): a Worker whose Models declare no association
 * bundles only this.
 */
export const associations = definePlugin({
  name: "associations",
  setup(base: { prototype: Record<string, unknown> }) {
    installRelationChecks();
    Object.assign(base.prototype, forwardedMethods("associations", ["reloadAssociation"], (record: object) => record.constructor), { asJson });
  },
  relationMethods: { includes },
  wrap: { relation: associationRelationWraps },
  appliesTo: workApplies("associations"),
  hooks: forwardedHooks("associations", [
    "record:initialize",
    "record:assign",
    "attribute:input",
    "record:hydrate",
    "record:validate",
    "record:beforeWrite",
    "record:afterSave",
    "record:beforeDestroy",
    "record:planDestroy",
    "record:beforeDelete",
    "relation:preparePlan",
    "relation:plan",
  ]),
});

declare module "../../kernel/index.js" {
  interface PluginRecordMethods<A> {
    /** Loads an association again (one declared with `hasMany`, `hasOne` or `belongsTo`); resolves to what it holds. */
    reloadAssociation<K extends AssociationName<this>>(name: K): Promise<LoadedAssociation<this[K]>>;
    /**
     * `toJSON()` with the loaded associations named in `include` nested (`asJson({ include: ["user", { comments:
     * ["user"] }] })`); hidden attributes stay out. An included association that is not loaded throws
     * `AssociationNotLoaded`: nothing is queried.
     */
    asJson<const I extends JsonInclude<this>>(options?: { include?: I }): Partial<JsonAttributes<A>> & Record<string, unknown>;
  }

  interface PluginRelationMethods<R> {
    /**
     * Preloads the named associations (an object names those below them) in the batch of the query: one round trip,
     * two when SQLite's second run of the query (ties or `random()` under a limit) chose other rows than it returned.
     * Generic in the names so that a Relation of a subclass that redeclares an association with a subclass of its
     * target (and so has more names) still serves as the base's Relation.
     */
    includes<K extends AssociationName<R>>(...associations: Array<K | IncludeObject<R>>): this;
  }

  interface PluginStatics<A> {
    /**
     * Preloads the named associations (an object names those below them) in the batch of the query: one round trip,
     * two when SQLite's second run of the query (ties or `random()` under a limit) chose other rows than it returned.
     */
    includes<M extends AnyModel>(this: M, ...associations: Array<AssociationName<RecordOfModel<M>> | IncludeObject<RecordOfModel<M>>>): RelationOf<M>;
  }
}
