/** Minimal Worker: a recordflare Model with find and create. */
import { ActiveRecord, connect, defineApplicationRecord } from "../../../dist/index.mjs";

const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
};

class ApplicationBase extends ActiveRecord {
  static binding = "DB";
}
const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);
class User extends ApplicationRecord("users") {}

export default {
  async fetch(request, env) {
    const Users = connect(env.DB).model(User);
    if (request.method === "POST") return Response.json(await Users.create(await request.json()));
    return Response.json(await Users.find(new URL(request.url).searchParams.get("id")));
  },
};
