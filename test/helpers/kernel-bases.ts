import { Base, defineApplicationRecord, idGeneration, timestamps } from "../../src/index.js";
import type { Plugin } from "../../src/plugin.js";
import { schema } from "../models/schema.js";

/**
 * A `users` Model on a base built from the kernel (`Base`) with generated ids, timestamps and the given plugins
 * only, as the guide's "Smaller bundles" section builds one.
 */
export function kernelUsers(...plugins: Plugin[]) {
  class KernelBase extends Base {
    static override binding = "DB";
    static {
      this.use(idGeneration, timestamps, ...plugins);
    }
  }
  // Typed as the kernel's own surface: the plugins' methods are looked up at run time in these tests.
  return class KernelUser extends defineApplicationRecord(schema, KernelBase)("users") {} as unknown as Function & Record<string, any>;
}
