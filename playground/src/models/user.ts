import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users") {}
