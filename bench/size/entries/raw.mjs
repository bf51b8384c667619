/** Minimal Worker: raw D1 prepared statements, find by id and create (the floor). */
export default {
  async fetch(request, env) {
    if (request.method === "POST") {
      const { name, email } = await request.json();
      const now = new Date().toISOString();
      const insert = "INSERT INTO users (id, name, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING *";
      return Response.json(await env.DB.prepare(insert).bind(crypto.randomUUID(), name, email, now, now).first());
    }
    const id = new URL(request.url).searchParams.get("id");
    return Response.json(await env.DB.prepare("SELECT * FROM users WHERE id = ?").bind(id).first());
  },
};
