/** recordflare: `db.model(User).find(id)` and `.create({...})` (ids, timestamps and typed records included). */
import { connect } from "../../../dist/index.mjs";
import { User } from "../../shared/models.mjs";
import { newUserAttributes } from "../../shared/new-user.mjs";

export function createSubject(d1) {
  const Users = connect(d1).model(User);
  return {
    find: (id) => Users.find(id),
    create: (i) => Users.create(newUserAttributes("cpu", i)),
  };
}
