/** The attributes each benchmark's `create` writes: unique per call, so UNIQUE(email) never fails. */
export function newUserAttributes(tag, i) {
  return { name: `Bench ${tag}-${i}`, email: `${tag}-${i}@bench.example`, age: 30 + (i % 40) };
}
