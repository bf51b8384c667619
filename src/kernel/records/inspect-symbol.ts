/** The method Node's `util.inspect` (and the Workers console) calls to print an object. */
export const INSPECT = Symbol.for("nodejs.util.inspect.custom");
