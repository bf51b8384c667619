import { env, type D1Migration } from "cloudflare:test";
import { env as workersEnv } from "cloudflare:workers";
import { expectTypeOf } from "vitest";

// The test bindings declared in test/env.d.ts.
expectTypeOf(env.DB).toEqualTypeOf<D1Database>();
expectTypeOf(env.TEST_MIGRATIONS).toEqualTypeOf<D1Migration[]>();
expectTypeOf(workersEnv.DB).toEqualTypeOf<D1Database>();

// @ts-expect-error: no such binding
void env.NOT_A_BINDING;

// @ts-expect-error: first() with a column name returns T | null, not T
const n: number = await env.DB.prepare("SELECT 1 AS n").first<number>("n");
void n;
