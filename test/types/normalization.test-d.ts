import { expectTypeOf } from "vitest";
import { ApplicationRecord, User } from "../models/fixtures.js";

export class Member extends ApplicationRecord("users") {
  static {
    this.normalizes("email", (email) => {
      expectTypeOf(email).toEqualTypeOf<string>();
      return email.trim();
    });
    this.normalizes(["name"], (name) => name.trim());
    this.normalizes("email", (email) => email ?? "none", { applyToNull: true });
    // @ts-expect-error an attribute the Model does not have
    this.normalizes("emial", (value: string) => value);
    // @ts-expect-error the function returns the attribute's type
    this.normalizes("age", (age) => String(age));
    // @ts-expect-error without applyToNull the function never receives null, and with it must accept null
    this.normalizes("email", (email: string) => email, { applyToNull: true });
    this.beforeValidation((record) => void expectTypeOf(record).toEqualTypeOf<Member>());
    this.afterValidation((record) => void expectTypeOf(record.errors.size).toEqualTypeOf<number>());
  }
}

expectTypeOf(User.permit({}, ["age", "name"], { emptyAsNull: true })).toEqualTypeOf<{ age?: number | null; name?: string }>();
// @ts-expect-error an option permit does not have
User.permit({}, ["age"], { blankAsNull: true });
