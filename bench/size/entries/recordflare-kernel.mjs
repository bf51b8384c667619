/**
 * Minimal Worker: the same Model with find and create, on a base built from the kernel (`Base`) with only the
 * plugins this Model uses (generated ids and timestamps), as the guide's "Smaller bundles" section shows.
 */
import { Base, connect, defineApplicationRecord, timestamps, idGeneration } from "../../../dist/index.mjs";

const schema = {
  users: {
    id: { type: "string", null: false, generateId: true },
    name: { type: "string", null: false },
    email: "string",
    createdAt: { type: "datetime", null: false },
    updatedAt: { type: "datetime", null: false },
  },
};

class ApplicationBase extends Base {
  static binding = "DB";
  static {
    this.use(idGeneration, timestamps);
  }
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
