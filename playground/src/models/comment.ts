import { ApplicationRecord } from "./application-record.js";

export class Comment extends ApplicationRecord("comments") {}
