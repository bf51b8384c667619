/** Minimal Worker: a recordflare Model with find and create, on the default base (every built-in plugin). */
import { ActiveRecord, defineApplicationRecord } from "../../../dist/index.mjs";
import { schema, usersWorker } from "../shared/recordflare-worker.mjs";

class ApplicationBase extends ActiveRecord {
  static binding = "DB";
}
const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);
class User extends ApplicationRecord("users") {}

export default usersWorker(User);
