import { Hono } from "hono";
import { expectTypeOf } from "vitest";
import { type Database, withRequestDatabase } from "../../src/index.js";
import { d1, type D1Variables } from "../../src/web/hono.js";

const app = new Hono<{ Variables: D1Variables }>();
app.use(d1({ binding: "DB", session: (request) => (request.method === "GET" ? "first-unconstrained" : "first-primary") }));
app.get("/", (c) => {
  expectTypeOf(c.var.db).toEqualTypeOf<Database>();
  return c.text("ok");
});

// @ts-expect-error a session constraint D1 does not know
d1({ session: "primary-first" });
// @ts-expect-error the binding is named by a string
d1({ binding: 5 });
// @ts-expect-error bookmark places are names or false
d1({ bookmark: { header: true } });

declare const request: Request;
declare const binding: D1Database;
expectTypeOf(withRequestDatabase(request, binding, () => new Response())).toEqualTypeOf<Promise<Response>>();
// @ts-expect-error the handler returns a Response
withRequestDatabase(request, binding, () => "ok");
