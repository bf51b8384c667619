import { expectTypeOf } from "vitest";
import { ActiveRecord, encrypts, type EncryptsOptions, type TextAttributeName } from "../../src/index.js";
import { ApplicationRecord } from "../models/fixtures.js";

export class Member extends ApplicationRecord("users") {
  static {
    this.encrypts("email", { deterministic: true });
    this.encrypts(["name"]);
    // @ts-expect-error an attribute the Model does not have
    this.encrypts("emial");
    // @ts-expect-error only string attributes are encrypted
    this.encrypts("age");
    // @ts-expect-error deterministic is a boolean
    this.encrypts("email", { deterministic: "yes" });
  }
}

expectTypeOf<TextAttributeName<{ email: string | null; age: number | null; name: string }>>().toEqualTypeOf<"email" | "name">();

export class KeyedBase extends ActiveRecord {
  static {
    this.use(encrypts({ key: "RECORDS_KEY", previousKeys: ["OLD_RECORDS_KEY"] }));
    this.use(encrypts({ key: (env) => env["RECORDS_KEY"], previousKeys: (env) => [env["OLD_RECORDS_KEY"]] }));
  }
}

// @ts-expect-error a key is required
export const keyless: EncryptsOptions = { previousKeys: [] };
