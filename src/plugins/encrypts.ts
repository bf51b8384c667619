import {
  type AnyModel,
  type Attribute,
  type AttributeName,
  type AttributesOfModel,
  attributesOf,
  type Condition,
  declareModelState,
  definePlugin,
  installRelationChecks,
  installWritePlans,
  InvalidModel,
  modelState,
  primaryKeyOf,
  RecordflareError,
  type ResolvedModel,
  SqlFragment,
  type WritePlan,
  workerEnv,
} from "../kernel/index.js";
import { addValuesOfNewClass, ENCRYPTED, encryptedOf, encryptionOf, hasEncryptingSubclass, noteEncryptingClass, refuseMixedRows, subclassEncrypted, writtenMaps } from "./encrypts-subclasses.js";

/** The Worker's env as a key function receives it: its bindings and secrets by name (empty outside a Worker). */
export type WorkerSecrets = Readonly<Record<string, unknown>>;

/** Options of the `encrypts` plugin: where its keys come from. */
export interface EncryptsOptions {
  /**
   * The key every value is encrypted with: 32 random bytes in base64 (`openssl rand -base64 32`), kept as a Worker
   * secret (`npx wrangler secret put RECORDS_KEY`). Either the secret's name in the Worker's env, or a function of
   * the env returning the key.
   */
  readonly key: string | ((env: WorkerSecrets) => unknown);
  /**
   * The keys used before `key`, which values written under them still decrypt with (key rotation): names of Worker
   * secrets, or a function of the env returning the keys. New writes always use `key`.
   */
  readonly previousKeys?: readonly string[] | ((env: WorkerSecrets) => readonly unknown[]);
}

/** Options of a Model's `encrypts(...)` declaration. */
export interface EncryptedAttributeOptions {
  /**
   * The same value always gives the same ciphertext (under one key), so that equality conditions (`where`,
   * `findBy`, a list, a unique index) can match it; the IV is an HMAC-SHA256 of the value, as in Rails. It shows
   * which rows hold equal values. Without it, each write has a random IV and the attribute cannot be queried.
   */
  readonly deterministic?: boolean;
}

/**
 * A key of the `encrypts` plugin is missing or malformed, or a stored value of an encrypted attribute cannot be
 * decrypted (`DecryptionError`). The message names the Model and the attribute, never the key or the value.
 */
export class EncryptionError extends RecordflareError {
  override name = "EncryptionError";
}

/**
 * A stored value of an encrypted attribute did not decrypt: written under a key that is neither `key` nor one of
 * `previousKeys`, altered, or not written by `encrypts` at all.
 */
export class DecryptionError extends EncryptionError {
  /** The class's name, shown before the message. */
  override name = "DecryptionError";
}

/** The names of a Model's attributes whose values are strings: what `encrypts` takes. */
export type TextAttributeName<A> = { [K in AttributeName<A>]: NonNullable<A[K]> extends string ? K : never }[AttributeName<A>];

/** A key in use: its id (stored with each value it encrypts), its AES-GCM key, and its HMAC key for deterministic IVs. */
interface DerivedKey {
  readonly id: string;
  readonly aes: CryptoKey;
  readonly ivHmac: CryptoKey;
}

/** The keys of a plugin: the newest first, which encrypts; then the previous ones, which only decrypt. */
type Keyring = readonly [DerivedKey, ...DerivedKey[]];

/** Stored values read `enc1.<key id>.<iv>.<ciphertext and tag>`, in base64url. */
const FORMAT = "enc1";
const IV_BYTES = 12;
const KEY_BYTES = 32;
// Marked free of side effects, as every top-level value here, so that a Worker without the plugin drops it whole.
const encoder = /* @__PURE__ */ new TextEncoder();
const decoder = /* @__PURE__ */ new TextDecoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  // In slices: a spread of a long value's bytes into one call would overflow the stack.
  for (let start = 0; start < bytes.length; start += 0x8000) binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (char) => char.charCodeAt(0));
}

/** What to do about a missing key: the newest is made anew, a previous one is the key that wrote older rows. */
const NEW_KEY = "make one with openssl rand -base64 32, then npx wrangler secret put";
const PREVIOUS_KEY = "give it the key that wrote older rows, or take it out of previousKeys";

/** The 32 bytes of a key given in base64; `EncryptionError` for anything else, without showing it. */
function keyBytes(secret: unknown, where: string, source: string, fix: string): Uint8Array {
  if (typeof secret !== "string" || secret.trim() === "") {
    throw new EncryptionError(`${where}: no encryption key: ${source} is not set (${fix})`);
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = fromBase64(secret.trim());
  } catch {
    bytes = undefined;
  }
  if (bytes?.length !== KEY_BYTES) throw new EncryptionError(`${where}: the encryption key in ${source} is not 32 bytes in base64 (openssl rand -base64 32)`);
  return bytes;
}

const HKDF_INFO = { aes: "recordflare encrypts: AES-GCM", ivHmac: "recordflare encrypts: deterministic IV", id: "recordflare encrypts: key id" };

/** The AES-GCM key, the IV's HMAC key and the key id, each derived from the secret by HKDF-SHA256 for its own use. */
async function deriveKey(bytes: Uint8Array): Promise<DerivedKey> {
  const base = await crypto.subtle.importKey("raw", bytes, "HKDF", false, ["deriveKey", "deriveBits"]);
  const params = (info: string) => ({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(info) });
  const [aes, ivHmac, id] = await Promise.all([
    crypto.subtle.deriveKey(params(HKDF_INFO.aes), base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]),
    crypto.subtle.deriveKey(params(HKDF_INFO.ivHmac), base, { name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"]),
    crypto.subtle.deriveBits(params(HKDF_INFO.id), base, 32),
  ]);
  return { id: [...new Uint8Array(id)].map((byte) => byte.toString(16).padStart(2, "0")).join(""), aes, ivHmac };
}

// Derived once per secret: WebCrypto's derivations are the dear part, and a Worker's secrets do not change.
const derivedKeys = /* @__PURE__ */ new Map<string, Promise<DerivedKey>>();

function derivedKey(secret: unknown, where: string, source: string, fix = NEW_KEY): Promise<DerivedKey> {
  const bytes = keyBytes(secret, where, source, fix);
  const text = (secret as string).trim();
  let derived = derivedKeys.get(text);
  if (!derived) derivedKeys.set(text, (derived = deriveKey(bytes)));
  return derived;
}

/** Reads the plugin's keys from the Worker's env; `where` is the Model and attribute that needed them. */
async function keyringOf(options: EncryptsOptions, where: string): Promise<Keyring> {
  const env: WorkerSecrets = (await workerEnv()) ?? {};
  const { key, previousKeys = [] } = options;
  const newest = typeof key === "string" ? derivedKey(env[key], where, `env.${key}`) : derivedKey(key(env), where, "the key function's key");
  const previous =
    typeof previousKeys === "function"
      ? [...previousKeys(env)].map((secret, index) => derivedKey(secret, where, `previousKeys[${index}]`, PREVIOUS_KEY))
      : previousKeys.map((name) => derivedKey(env[name], where, `env.${name}`, PREVIOUS_KEY));
  const [first, ...rest] = await Promise.all([newest, ...previous]);
  return [first!, ...rest];
}

async function encrypt(key: DerivedKey, plaintext: string, deterministic: boolean): Promise<string> {
  const data = encoder.encode(plaintext);
  const iv = deterministic
    ? new Uint8Array(await crypto.subtle.sign("HMAC", key.ivHmac, data), 0, IV_BYTES)
    : crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key.aes, data));
  return `${FORMAT}.${key.id}.${base64url(iv)}.${base64url(sealed)}`;
}

/** The parts of a stored value, or undefined for one `encrypt` did not make. */
function storedParts(stored: unknown): { id: string; iv: Uint8Array; sealed: Uint8Array } | undefined {
  const parts = typeof stored === "string" ? stored.split(".") : [];
  if (parts.length !== 4 || parts[0] !== FORMAT) return undefined;
  try {
    return { id: parts[1]!, iv: fromBase64(parts[2]!), sealed: fromBase64(parts[3]!) };
  } catch {
    return undefined;
  }
}

async function decrypt(keyring: Keyring, stored: unknown, where: string): Promise<string> {
  const parts = storedParts(stored);
  if (!parts) throw new DecryptionError(`${where}: the stored value is not one encrypts wrote (was it stored before the attribute was encrypted?)`);
  const keys = keyring.filter((key) => key.id === parts.id);
  if (keys.length === 0) throw new DecryptionError(`${where}: the value was encrypted with key ${parts.id}, which is neither the key nor one of previousKeys`);
  let failure: unknown;
  for (const key of keys) {
    try {
      return decoder.decode(await crypto.subtle.decrypt({ name: "AES-GCM", iv: parts.iv }, key.aes, parts.sealed));
    } catch (error) {
      failure = error;
    }
  }
  throw new DecryptionError(`${where}: the value does not decrypt with key ${parts.id}: it was altered, or written under another key`, { cause: failure });
}

/** The leaves of a Relation's conditions: each condition inside `not` and `or` too. */
function* leaves(conditions: readonly Condition[]): Generator<Condition> {
  for (const condition of conditions) {
    if (condition.kind === "not") yield* leaves(condition.conditions);
    else if (condition.kind === "or") for (const branch of condition.branches) yield* leaves(branch);
    else yield condition;
  }
}

/**
 * A condition that compares a value with an encrypted attribute: the Model's, with its options, or one only a
 * subclass encrypts (whose rows a query of the Model reads too), with that subclass.
 */
type EncryptedLeaf = {
  readonly condition: Extract<Condition, { kind: "equal" | "in" | "compare" }>;
  readonly options: EncryptedAttributeOptions;
  readonly subclass?: Function;
};

function encryptedLeaves(model: ResolvedModel, conditions: readonly Condition[]): EncryptedLeaf[] {
  const encrypted = encryptedOf(model.model);
  const bySubclass = subclassEncrypted(model);
  const found: EncryptedLeaf[] = [];
  for (const condition of leaves(conditions)) {
    if (condition.kind !== "equal" && condition.kind !== "in" && condition.kind !== "compare") continue;
    const { name } = condition.attribute;
    const options = encrypted.get(name);
    if (options) found.push({ condition, options });
    else if (bySubclass.has(name)) found.push({ condition, options: {}, subclass: bySubclass.get(name)! });
  }
  return found;
}

/** Why a condition on an encrypted attribute cannot be sent as it is: what it compares, and how. */
/** Whether rows read through `model` may hold the attribute encrypted: by the Model itself or by a subclass. */
function readsEncrypted(model: ResolvedModel, name: string): boolean {
  return encryptedOf(model.model).has(name) || subclassEncrypted(model).has(name);
}

function refusalOf(model: ResolvedModel, { condition, options, subclass }: EncryptedLeaf): TypeError | undefined {
  const where = `${model.name}.${condition.attribute.name}`;
  if (subclass) {
    return new TypeError(
      `${where} is encrypted by ${model.name}'s subclass ${subclass.name}, not by ${model.name}: a condition on it from ${model.name} would send its plaintext and could not match ${subclass.name}'s rows; query them through ${subclass.name} (${subclass.name}.where(...))`,
    );
  }
  if (!options.deterministic) {
    return new TypeError(`${where} is encrypted with a random IV: no condition can match its ciphertext; declare it encrypts(..., { deterministic: true }) to query it`);
  }
  if (condition.kind === "compare") {
    return new TypeError(`${where} is encrypted: a comparison (gt, lt, between, ignoringCase) would compare ciphertext; only equality and lists match it`);
  }
  return undefined;
}

// The conditions relation:prepare made, holding ciphertext: any other condition on an encrypted attribute holds plaintext.
const encryptedConditions = /* @__PURE__ */ new WeakSet<Condition>();

/** The condition with its plaintext values replaced by their ciphertexts under every key, so that rows of each match. */
async function encryptedCondition(condition: Extract<Condition, { kind: "equal" | "in" }>, keyring: Keyring): Promise<Condition> {
  const values = condition.kind === "equal" ? [condition.value] : condition.values;
  const ciphertexts = await Promise.all(values.flatMap((value) => keyring.map((key) => encrypt(key, String(value), true))));
  const made: Condition =
    ciphertexts.length === 1
      ? { kind: "equal", attribute: condition.attribute, value: ciphertexts[0] }
      : { kind: "in", attribute: condition.attribute, values: ciphertexts, orNull: condition.kind === "in" && condition.orNull };
  encryptedConditions.add(made);
  return made;
}

/** The conditions with each leaf in `replaced` swapped for its replacement, `not` and `or` rebuilt around them. */
function replaceLeaves(conditions: readonly Condition[], replaced: ReadonlyMap<Condition, Condition>): Condition[] {
  return conditions.map((condition) => {
    if (condition.kind === "not") return { kind: "not", conditions: replaceLeaves(condition.conditions, replaced) };
    if (condition.kind === "or") return { kind: "or", branches: condition.branches.map((branch) => replaceLeaves(branch, replaced)) };
    return replaced.get(condition) ?? condition;
  });
}

/** The name of the method a write was asked through, as its `to...` form reads. */
function statementMethod(plan: WritePlan): string {
  return `to${plan.operation[0]!.toUpperCase()}${plan.operation.slice(1)}`;
}

// The ciphertexts write:prepare made for each write: write:plan refuses any other value of an encrypted attribute.
const encryptedWrites = /* @__PURE__ */ new WeakMap<WritePlan, Set<unknown>>();

/** Refuses a write that would send a value of an encrypted attribute `write:prepare` did not encrypt. */
function refusePlaintext(plan: WritePlan, name: string): void {
  const { model } = plan;
  if (!plan.prepared) {
    throw new TypeError(
      `${model.name}.${statementMethod(plan)}: ${name} is encrypted, which needs the async write stage; use await ${model.name}.${plan.operation}(...) instead`,
    );
  }
  throw new TypeError(`${model.name}.${plan.operation}: a hook set ${name}, which is encrypted, after its encryption; set it in record:write or earlier`);
}

/** Refuses an `sql` fragment as the value of an encrypted attribute: the database would write it unencrypted. */
function refuseFragment(plan: WritePlan, name: string): never {
  throw new TypeError(
    `${plan.model.name}.${plan.prepared ? plan.operation : statementMethod(plan)}: ${name} is encrypted, and an sql fragment is computed by the database, which cannot encrypt it; give the value itself`,
  );
}

/**
 * Encrypted attributes (Rails 7's `encrypts`): AES-256-GCM through WebCrypto, with a key from the Worker's secrets.
 * Register it on a base class with its keys, then declare the attributes on each Model:
 * `static { this.use(encrypts({ key: "RECORDS_KEY" })) }` and `static { this.encrypts("email", { deterministic:
 * true }) }`. Every write (save, `insert`, `insertAll`, `upsert`, `upsertAll`, `updateAll`) encrypts in
 * `write:prepare` with the newest key; every load (records, `find`, `reload`, preloads, the row a create returns,
 * `pluck`) decrypts in `records:load` with the key its value names. A deterministic attribute's equality conditions
 * are encrypted in `relation:prepare`, under every key; the sync forms that cannot await WebCrypto (`toSql()`,
 * `toSelect()`, `toInsert()`, `toUpdateAll()`...) are refused with `TypeError` rather than send plaintext, as are
 * conditions on a non-deterministic attribute, comparisons and orders. An attribute only a subclass encrypts
 * (single-table inheritance) is encrypted and decrypted in that subclass's rows, through its parent too; what one
 * statement cannot encrypt for those rows alone (the parent's conditions on it, its `updateAll` or upsert setting
 * it) is refused with `TypeError`. Encrypted attributes are filtered (`[FILTERED]` wherever recordflare shows
 * values). Optional: not in the default set.
 */
export function encrypts(options: EncryptsOptions) {
  checkedOptions(options);
  const keyring = (model: ResolvedModel, name: string) => keyringOf(options, `${model.name}.${name}`);
  return definePlugin({
    name: "encrypts",
    setup(base: Record<string, unknown>) {
      installWritePlans();
      // Its relation:prepare hook replaces conditions, which Relation.with checks.
      installRelationChecks();
      base["encrypts"] = function (this: Function, names: unknown, attributeOptions?: unknown) {
        const byName = declareModelState(this, ENCRYPTED);
        const checked = checkedAttributeOptions(this, attributeOptions);
        for (const name of checkedNames(this, names)) byName.set(name, checked);
        noteEncryptingClass(this);
      };
    },
    // A Model whose subclass encrypts reads and writes that subclass's rows; one with neither gets none of these hooks.
    appliesTo: (model: Function) => modelState(model, ENCRYPTED).size > 0 || hasEncryptingSubclass(model),
    hooks: {
      "model:finalize"(model: Function) {
        const attributes = new Map(attributesOf(model).map((attribute) => [attribute.name, attribute]));
        for (const name of modelState(model, ENCRYPTED).keys()) {
          const attribute = attributes.get(name);
          refuseUnencryptable(model, name, attribute);
          // As Rails adds encrypted attributes to filter_parameters: their values are secrets.
          attribute!.filtered = true;
        }
      },
      "write:prepare"(plan) {
        addValuesOfNewClass(plan);
        const jobs: Promise<void>[] = [];
        const made = new Set<unknown>();
        let ring: Promise<Keyring> | undefined;
        for (const values of writtenMaps(plan)) {
          for (const [name, { deterministic = false }] of encryptionOf(plan, values)) {
            const value = values.get(name);
            // An sql fragment is computed by the database, which holds no key: write:plan refuses it.
            if (value === null || value === undefined || value instanceof SqlFragment) continue;
            ring ??= keyring(plan.model, name);
            const encrypting = ring.then(([newest]) => encrypt(newest, value as string, deterministic));
            jobs.push(encrypting.then((ciphertext) => void (made.add(ciphertext), values.set(name, ciphertext))));
          }
        }
        if (jobs.length === 0) return;
        encryptedWrites.set(plan, made);
        return Promise.all(jobs).then(() => {});
      },
      "write:plan"(plan) {
        refuseMixedRows(plan, plan.prepared ? plan.operation : statementMethod(plan));
        const made = encryptedWrites.get(plan);
        for (const values of writtenMaps(plan)) {
          for (const name of encryptionOf(plan, values).keys()) {
            const value = values.get(name);
            if (value instanceof SqlFragment) refuseFragment(plan, name);
            if (value !== null && value !== undefined && !made?.has(value)) refusePlaintext(plan, name);
          }
        }
      },
      "records:load"({ model, rows }) {
        const jobs: Promise<void>[] = [];
        let ring: Promise<Keyring> | undefined;
        const bySubclass = subclassEncrypted(model);
        for (const name of [...encryptedOf(model.model).keys(), ...bySubclass.keys()]) {
          const { column } = model.byName.get(name)!;
          const where = `${model.name}.${name}`;
          for (const row of rows) {
            const stored = row[column];
            // An attribute only a subclass encrypts is encrypted in that subclass's rows, which a pluck or a select
            // without the type reads as the Model's: their values show by their form, the others' are plaintext.
            if (stored === null || stored === undefined || (bySubclass.has(name) && !storedParts(stored))) continue;
            ring ??= keyring(model, name);
            jobs.push(ring.then((keys) => decrypt(keys, stored, where)).then((plaintext) => void (row[column] = plaintext)));
          }
        }
        return jobs.length === 0 ? undefined : Promise.all(jobs).then(() => {});
      },
      "relation:prepare"(context) {
        const { model, conditions } = context;
        // The stage may run again on a Relation it prepared (toSelect() of a page): ciphertext stays as it is.
        const found = encryptedLeaves(model, conditions).filter((leaf) => !encryptedConditions.has(leaf.condition));
        if (found.length === 0) return;
        for (const leaf of found) {
          const refusal = refusalOf(model, leaf);
          if (refusal) throw refusal;
        }
        return keyring(model, found[0]!.condition.attribute.name).then(async (ring) => {
          const replaced = new Map<Condition, Condition>();
          await Promise.all(
            found.map(async ({ condition }) => replaced.set(condition, await encryptedCondition(condition as Extract<Condition, { kind: "equal" | "in" }>, ring))),
          );
          context.conditions = replaceLeaves(conditions, replaced);
        });
      },
      // Every compile path prepares first, which encrypts each such condition or refuses: one left in plaintext was
      // compiled without the prepare stage (a plugin's own selectParts), and is refused rather than sent.
      "relation:where"({ model, data }) {
        for (const leaf of encryptedLeaves(model, data.conditions)) {
          if (encryptedConditions.has(leaf.condition)) continue;
          throw (
            refusalOf(model, leaf) ??
            new TypeError(
              `${model.name}.${leaf.condition.attribute.name} is encrypted: a condition on it is encrypted by the prepare stage (relation:prepare), which this Relation was compiled without; prepare it first (prepareRelation)`,
            )
          );
        }
      },
      "relation:order"({ model, data }) {
        for (const term of data.order) {
          if (term.kind === "attribute" && readsEncrypted(model, term.attribute.name)) {
            throw new TypeError(`${model.name}.order: ${term.attribute.name} is encrypted: ordering by it would order ciphertext`);
          }
        }
      },
      "relation:select"({ model, data, purpose }) {
        const aggregated = purpose === "calculate" ? data.select?.find((attribute) => readsEncrypted(model, attribute.name)) : undefined;
        if (aggregated) throw new TypeError(`${model.name}: ${aggregated.name} is encrypted: a sum, average, minimum or maximum of it would read ciphertext`);
      },
    },
  });
}

function checkedOptions(options: unknown): asserts options is EncryptsOptions {
  const usage = "encrypts takes { key, previousKeys? }: key the name of a Worker secret or a function of the env";
  if (typeof options !== "object" || options === null) throw new TypeError(usage);
  const { key, previousKeys } = options as Record<string, unknown>;
  if (typeof key !== "string" && typeof key !== "function") throw new TypeError(usage);
  const namesOrFunction = previousKeys === undefined || typeof previousKeys === "function" || (Array.isArray(previousKeys) && previousKeys.every((name) => typeof name === "string"));
  if (!namesOrFunction) throw new TypeError("encrypts: previousKeys takes names of Worker secrets, or a function of the env returning the keys");
}

function checkedNames(model: Function, names: unknown): string[] {
  const list = Array.isArray(names) ? names : [names];
  if (list.length === 0 || list.some((name) => typeof name !== "string")) {
    throw new TypeError(`${model.name}.encrypts takes an attribute name or a list of them, then { deterministic? }`);
  }
  return list as string[];
}

function checkedAttributeOptions(model: Function, options: unknown): EncryptedAttributeOptions {
  if (options === undefined) return {};
  const { deterministic, ...rest } = (typeof options === "object" && options !== null ? options : { rest: true }) as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (deterministic !== undefined && typeof deterministic !== "boolean")) {
    throw new TypeError(`${model.name}.encrypts: the options are { deterministic?: boolean }`);
  }
  return { deterministic: deterministic === true };
}

/** Refuses, at the Model's first use, an encrypted attribute it does not have or cannot encrypt. */
function refuseUnencryptable(model: Function, name: string, attribute: Attribute | undefined): void {
  if (!attribute) throw new InvalidModel(`${model.name}.encrypts: ${name} is not an attribute`);
  if (attribute.typeName !== "string") throw new InvalidModel(`${model.name}.encrypts: ${name} is a ${attribute.typeName}; only string attributes are encrypted`);
  if (attribute === primaryKeyOf(model)) throw new InvalidModel(`${model.name}.encrypts: ${name} is the primary key, which rows are found by`);
}

declare module "../kernel/index.js" {
  interface PluginStatics<A> {
    /**
     * Encrypts string attributes in the database (the `encrypts` plugin, registered with its keys on a base class):
     * `this.encrypts("email", { deterministic: true })`. A misspelt or non-string attribute is a compile error, and
     * an `InvalidModel` at the Model's first use.
     */
    encrypts<M extends AnyModel, K extends TextAttributeName<AttributesOfModel<M>>>(this: M, attributes: K | readonly K[], options?: EncryptedAttributeOptions): void;
  }
}
