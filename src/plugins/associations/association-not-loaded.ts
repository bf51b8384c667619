import { RecordflareError } from "../../kernel/index.js";

/** An association was read before it was loaded (`load()` or `includes`), or on a record made with `new`. */
export class AssociationNotLoaded extends RecordflareError {
  override name = "AssociationNotLoaded";
}
