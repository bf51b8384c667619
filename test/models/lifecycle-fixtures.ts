import { Model } from "../../src/index.js";

/** Accounts: attributes the default `filterAttributes` match (email, password, token), and a hidden one. */
export class Account extends Model({
  id: { type: "string", null: false },
  name: "string",
  email: "string",
  passwordDigest: "string",
  apiToken: "string",
  role: { type: "string", null: false },
  createdAt: { type: "datetime", null: false },
  updatedAt: { type: "datetime", null: false },
}) {
  static override binding = "DB";
  static override hiddenAttributes = ["passwordDigest"];
}

/** Sessions: a text primary key named `token`, which the default `filterAttributes` filter. */
export class Session extends Model({
  token: { type: "string", null: false },
  userName: "string",
}) {
  static override binding = "DB";
  static override primaryKey = "token";
}
