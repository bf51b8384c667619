/**
 * recordflare/plugin: the plugin API, everything a built-in plugin uses, so that a plugin of your own has the same
 * power: `definePlugin`, per-Model state, the hook contexts, introspection, `Statement` and the compiler's pieces.
 * Apps import from `recordflare`; this entry is for writing plugins.
 * @packageDocumentation
 */
export * from "./kernel/index.js";
