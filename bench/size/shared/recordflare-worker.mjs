/** What both recordflare size entries share: the `users` schema and a Worker that finds and creates users. */
import { connect } from "../../../dist/index.mjs";

export const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
};

/** A Worker: POST creates a user from the JSON body, GET finds the user `?id=`. */
export function usersWorker(User) {
  return {
    async fetch(request, env) {
      const Users = connect(env.DB).model(User);
      if (request.method === "POST") return Response.json(await Users.create(await request.json()));
      return Response.json(await Users.find(new URL(request.url).searchParams.get("id")));
    },
  };
}
