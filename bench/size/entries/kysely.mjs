/** Minimal Worker: Kysely with kysely-d1, find by id and create. */
import { Kysely } from "kysely";
import { D1Dialect } from "kysely-d1";

export default {
  async fetch(request, env) {
    const db = new Kysely({ dialect: new D1Dialect({ database: env.DB }) });
    if (request.method === "POST") {
      const now = new Date().toISOString();
      const values = { id: crypto.randomUUID(), ...(await request.json()), created_at: now, updated_at: now };
      return Response.json(await db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow());
    }
    const id = new URL(request.url).searchParams.get("id");
    return Response.json(await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst());
  },
};
