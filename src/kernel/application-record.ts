import type { AttributeDeclarations, AttributeOverride, AttributesOf, OverriddenDeclarations } from "./records/attributes.js";
import type { Base } from "./base.js";
import { defineModel, defineTableModel } from "./records/define-model.js";
import type { ModelClass } from "./types.js";

/** The generated schema: each table's attribute declarations, by table name. */
export type Schema = { readonly [table: string]: AttributeDeclarations };

/** Statics and instance members a user's base class adds beyond the kernel's. */
type Extension<B extends typeof Base> = Omit<B, keyof typeof Base | "prototype">;
type InstanceExtension<B extends typeof Base> = Omit<InstanceType<B>, keyof Base>;

/** A Model class with attributes `A` below the app's base class `B`. */
export type AppModel<A, B extends typeof Base> = ModelClass<A, InstanceExtension<B>> & Extension<B>;

type NoExtraKeys<O, Allowed> = { [K in Exclude<keyof O, keyof Allowed>]: never };

/** `ApplicationRecord`: makes a Model base class from a table of the schema, or from declarations by hand. */
export interface ApplicationRecordFunction<S extends Schema, B extends typeof Base> {
  /** A Model of a table in the generated schema, with optional overrides of its attributes. */
  <T extends keyof S & string, const O extends { readonly [name: string]: AttributeOverride } = {}>(
    table: T,
    overrides?: O & NoExtraKeys<O, S[T]>,
  ): AppModel<AttributesOf<OverriddenDeclarations<S[T], O>>, B>;
  /** A Model with attributes declared by hand (a view, or a table the migrations do not make). */
  <const D extends AttributeDeclarations>(declarations: D): AppModel<AttributesOf<D>, B>;
}

/**
 * Makes the app's `ApplicationRecord` function from the generated schema and the app's base class
 * (where `static override binding = "DB"` and app-wide plugins go).
 */
export function defineApplicationRecord<const S extends Schema, B extends typeof Base>(schema: S, base: B): ApplicationRecordFunction<S, B> {
  return ((tableOrDeclarations: string | AttributeDeclarations, overrides?: Record<string, AttributeOverride>) =>
    typeof tableOrDeclarations === "string"
      ? defineTableModel(base, schema, tableOrDeclarations, overrides)
      : defineModel(base, tableOrDeclarations)) as unknown as ApplicationRecordFunction<S, B>;
}
