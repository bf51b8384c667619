/**
 * Minimal Worker: the same Model with find and create, on a base built from the kernel (`Base`) with only the
 * plugins this Model uses (generated ids and timestamps), as the guide's "Smaller bundles" section shows.
 */
import { Base, defineApplicationRecord, idGeneration, timestamps } from "../../../dist/index.mjs";
import { schema, usersWorker } from "../shared/recordflare-worker.mjs";

class ApplicationBase extends Base {
  static binding = "DB";
  static {
    this.use(idGeneration, timestamps);
  }
}
const ApplicationRecord = defineApplicationRecord(schema, ApplicationBase);
class User extends ApplicationRecord("users") {}

export default usersWorker(User);
