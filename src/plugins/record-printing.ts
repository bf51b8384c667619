import { definePlugin, INSPECT, inspectRecord } from "../kernel/index.js";

/**
 * Record printing: `record.toString()`, and what `console.log` and `util.inspect` print in Node (the same text),
 * `#<User id: "…", name: "Ada", email: [FILTERED]>`. Sends no query.
 */
export const recordPrinting = definePlugin({
  name: "recordPrinting",
  setup(base: { prototype: object }) {
    Object.defineProperties(base.prototype, {
      toString: { value: printRecord, writable: true, configurable: true },
      // Through toString, so that a Model's own toString prints in the console too.
      [INSPECT]: { value: printThroughToString, writable: true, configurable: true },
    });
  },
});

function printRecord(this: object): string {
  return inspectRecord(this);
}

function printThroughToString(this: object): string {
  return this.toString();
}
