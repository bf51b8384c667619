// Placeholder Worker: the real playground (using recordflare) comes later.
interface Env {
  DB: D1Database;
}

export default {
  async fetch(_request, env): Promise<Response> {
    // Touch the D1 binding so a missing migration shows up as an error.
    await env.DB.prepare("SELECT count(*) AS n FROM notes").first("n");
    return new Response("ok");
  },
} satisfies ExportedHandler<Env>;
