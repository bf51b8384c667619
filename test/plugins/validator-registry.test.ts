import { beforeEach, describe, expect, it } from "vitest";
import { defineApplicationRecord, defineValidator, type ValidatorOption } from "../../src/index.js";
import { resetDatabase } from "../helpers/db.js";
import { countRows, listen } from "../helpers/queries.js";
import { ApplicationBase, schema, type User } from "../models/fixtures.js";

declare module "../../src/index.js" {
  interface ValidatorOptions<T> {
    /** Test check: an address with an `@` (and, given `domain`, at that domain). */
    email?: ValidatorOption<{ domain?: string }>;
    /** Test check: no other user has this name, asked of the database. */
    freeName?: ValidatorOption;
    /** Test check: registered on a subclass base only. */
    shout?: ValidatorOption;
    /** Test check: the value equals another attribute's, which it names. */
    sameAs?: ValidatorOption<{ other: string }>;
  }
}

const email = defineValidator<{ domain?: string }>("email", {
  check: (given) => {
    if (given === true) return undefined;
    const { domain, ...rest } = given as { domain?: unknown };
    if (domain !== undefined && typeof domain !== "string") return "domain: must be a string";
    const unknown = Object.keys(rest).find((key) => !["allowNil", "allowBlank", "message"].includes(key));
    return unknown && `unknown option ${unknown} (options: domain, allowNil, allowBlank, message)`;
  },
  validate: ({ value, options, report }) => {
    const text = typeof value === "string" ? value : "";
    if (!/^[^@\s]+@[^@\s]+$/.test(text)) return report("invalid_email", "is not an email address");
    if (options.domain !== undefined && !text.endsWith(`@${options.domain}`)) report("wrong_domain", `is not at ${options.domain}`);
  },
});

/** The Models that declared each freeName check run, as its context names them. */
const declaringModels: string[] = [];

// A check that queries, through the database the record writes through: validate may be async.
const freeName = defineValidator("freeName", {
  validate: async ({ record, model: declaring, value, report }) => {
    declaringModels.push(declaring.name);
    const model = record.constructor as typeof User;
    if (await model.where({ name: value as string }).exists()) report("taken", "is taken");
  },
});

const shout = defineValidator("shout", {
  validate: ({ value, report }) => {
    if (typeof value !== "string" || value !== value.toUpperCase()) report("not_shouted", "must be in capitals");
  },
});

// A check that reads another attribute, which it names for the declaration check.
const sameAs = defineValidator<{ other: string }>("sameAs", {
  attributesRead: ({ other }) => [other],
  validate: ({ record, value, options, report }) => {
    if (record.readAttribute(options.other) !== value) report("different", `must equal ${options.other}`);
  },
});

/** An app base with the registered checks, as an app registers them: in its base class's static block. */
class CheckedBase extends ApplicationBase {
  static {
    this.use(email, freeName);
  }
}
const CheckedRecord = defineApplicationRecord(schema, CheckedBase);

/** A subclass base that registers one more check; its parent and its siblings do not know it. */
class LoudBase extends CheckedBase {
  static {
    this.use(shout);
  }
}
const LoudRecord = defineApplicationRecord(schema, LoudBase);

const PlainRecord = defineApplicationRecord(schema, ApplicationBase);

beforeEach(resetDatabase);

describe("a check registered with defineValidator", () => {
  it("is a validates option: it refuses a bad value with its error, and nothing is written", async () => {
    class Member extends CheckedRecord("users") {
      static {
        this.validates("email", { email: true });
      }
    }
    const { db, sqls } = listen();
    const member = db.model(Member).build({ name: "Ada", email: "ada" });
    expect(await member.save()).toBe(false);
    expect(member.errors.on("email")).toEqual([{ attribute: "email", type: "invalid_email", message: "is not an email address" }]);
    expect(sqls()).toEqual([]);
    await expect(db.model(Member).createOrThrow({ name: "Ada", email: "ada" })).rejects.toThrow("Email is not an email address");
    member.email = "ada@example.com";
    expect(await member.save()).toBe(true);
    expect(await countRows("users")).toBe(1);
  });

  it("takes its long form: its own options, and a message that replaces its own", async () => {
    class Staff extends CheckedRecord("users") {
      static {
        this.validates("email", { email: { domain: "example.com", message: "must be a work address" } });
      }
    }
    const outsider = Staff.build({ name: "Ada", email: "ada@elsewhere.org" });
    expect(await outsider.save()).toBe(false);
    expect(outsider.errors.on("email")).toEqual([{ attribute: "email", type: "wrong_domain", message: "must be a work address" }]);
    expect(await Staff.build({ name: "Ada", email: "ada@example.com" }).save()).toBe(true);
  });

  it("takes the declaration's message, which its own message overrides", async () => {
    class Messaged extends CheckedRecord("users") {
      static {
        this.validates("email", { email: true, presence: true, message: "is wrong" });
        this.validates("name", { email: { message: "is no address" }, message: "is wrong" });
      }
    }
    const record = Messaged.build({ name: "Ada", email: "" });
    expect(await record.save()).toBe(false);
    expect(record.errors.fullMessages()).toEqual(["Email is wrong", "Email is wrong", "Name is no address"]);
  });

  it("skips null under allowNil and blank values under allowBlank, its own or the declaration's", async () => {
    class Optional extends CheckedRecord("users") {
      static {
        this.validates("email", { email: { allowNil: true } });
        this.validates("settings", { email: true, allowBlank: true });
      }
    }
    expect(await Optional.build({ name: "Ada", email: null }).save()).toBe(true);
    const blank = Optional.build({ name: "Ada", email: "" });
    expect(await blank.save()).toBe(false);
    expect(blank.errors.fullMessages()).toEqual(["Email is not an email address"]);
    expect(await Optional.build({ name: "Bo", settings: [] }).save()).toBe(true);
  });

  it("runs on the save `on` names only, and when `if` says so", async () => {
    class Staged extends CheckedRecord("users") {
      static {
        this.validates("email", { email: true, on: "update" });
        this.validates("name", { freeName: true, on: "create" });
        this.validates("settings", { email: true, if: (record: { admin: boolean }) => record.admin });
      }
    }
    const staged = await Staged.createOrThrow({ name: "Ada", email: "not yet", settings: "none" });
    expect(await staged.update({ name: "Bo" })).toBe(false);
    expect(staged.errors.fullMessages()).toEqual(["Email is not an email address"]);
    expect(await staged.update({ email: "ada@example.com" })).toBe(true);
    const twin = Staged.build({ name: "Bo" });
    expect(await twin.save()).toBe(false);
    expect(twin.errors.fullMessages()).toEqual(["Name is taken"]);
    expect(await staged.update({ admin: true })).toBe(false);
    expect(staged.errors.fullMessages()).toEqual(["Settings is not an email address"]);
  });

  it("may query the database (an async validate)", async () => {
    class Named extends CheckedRecord("users") {
      static {
        this.validates("name", { freeName: true });
      }
    }
    await Named.createOrThrow({ name: "Ada" });
    const second = Named.build({ name: "Ada" });
    expect(await second.save()).toBe(false);
    expect(second.errors.fullMessages()).toEqual(["Name is taken"]);
    expect(await countRows("users")).toBe(1);
  });

  it("is told the Model that declared it, for a subclass's record too", async () => {
    class Named extends CheckedRecord("users") {
      static {
        this.validates("name", { freeName: true });
      }
    }
    class Nickname extends Named {}
    declaringModels.length = 0;
    await Nickname.createOrThrow({ name: "Ada" });
    await Named.createOrThrow({ name: "Bo" });
    expect(declaringModels).toEqual(["Named", "Named"]);
  });

  it("has its option checked when declared, by its own check, with the Model, attribute and option named", () => {
    expect(() => {
      class Typo extends CheckedRecord("users") {
        static {
          this.validates("email", { email: { domian: "example.com" } as never });
        }
      }
      return Typo;
    }).toThrow(new TypeError('Typo.validates("email"): email: unknown option domian (options: domain, allowNil, allowBlank, message)'));
    expect(() => {
      class Shape extends CheckedRecord("users") {
        static {
          this.validates("email", { email: { message: 3 } as never });
        }
      }
      return Shape;
    }).toThrow(new TypeError('Shape.validates("email"): email: message: must be a string'));
    expect(() => {
      class Short extends CheckedRecord("users") {
        static {
          this.validates("name", { freeName: "yes" as never });
        }
      }
      return Short;
    }).toThrow(new TypeError('Short.validates("name"): freeName: must be true or an object'));
  });

  it("counts as a check, and is listed among the known options when one is unknown", () => {
    class Enough extends CheckedRecord("users") {
      static {
        this.validates("email", { email: true, allowNil: true });
      }
    }
    expect(Enough.name).toBe("Enough");
    expect(() => {
      class Unknown extends CheckedRecord("users") {
        static {
          this.validates("email", { emial: true } as never);
        }
      }
      return Unknown;
    }).toThrow(
      new TypeError(
        'Unknown.validates("email"): unknown option emial (options: presence, length, format, inclusion, numericality, uniqueness, email, freeName, allowNil, allowBlank, message, on, if)',
      ),
    );
    // A name every object inherits is no option either, at the top level or in a long form.
    for (const options of [{ toString: true }, { length: { minimum: 1, constructor: 1 } }]) {
      expect(() => {
        class Inherited extends CheckedRecord("users") {
          static {
            this.validates("email", options as never);
          }
        }
        return Inherited;
      }).toThrow(/unknown option (toString|constructor) \(options: /);
    }
    expect(() => {
      class Empty extends CheckedRecord("users") {
        static {
          this.validates("email", { message: "x" });
        }
      }
      return Empty;
    }).toThrow(/needs at least one check \(presence, length, format, inclusion, numericality, uniqueness, email, freeName\)/);
  });

  it("is known on the Models of the base it is registered on and below, never on a parent or sibling base", async () => {
    class Loud extends LoudRecord("users") {
      static {
        this.validates("name", { shout: true, email: { allowNil: true } });
      }
    }
    const quiet = Loud.build({ name: "Ada" });
    expect(await quiet.save()).toBe(false);
    // In the order the Model offers its checks: the built-in ones, then those registered, parent base first.
    expect(quiet.errors.fullMessages()).toEqual(["Name is not an email address", "Name must be in capitals"]);
    for (const Record of [CheckedRecord, PlainRecord]) {
      expect(() => {
        class Sibling extends Record("users") {
          static {
            this.validates("name", { shout: true });
          }
        }
        return Sibling;
      }).toThrow(/Sibling\.validates\("name"\): unknown option shout/);
    }
    expect(() => {
      class Plain extends PlainRecord("users") {
        static {
          this.validates("email", { email: true });
        }
      }
      return Plain;
    }).toThrow(/unknown option email \(options: presence, length, format, inclusion, numericality, uniqueness, allowNil/);
  });

  it("is registered once however often its plugin is used, and a second check of the same name is refused", () => {
    class Twice extends CheckedBase {
      static {
        this.use(email);
      }
    }
    expect(Twice.name).toBe("Twice");
    const otherEmail = defineValidator("email", { validate: () => {} });
    expect(() => {
      class Clash extends CheckedBase {
        static {
          this.use(otherEmail);
        }
      }
      return Clash;
    }).toThrow(new TypeError("Clash: a validator named email is registered already"));
  });

  it("refuses a name that is no identifier or is an option already, and a validator without validate", () => {
    expect(() => defineValidator("presence", { validate: () => {} })).toThrow(new TypeError("defineValidator: presence is an option of validates already"));
    expect(() => defineValidator("allowNil", { validate: () => {} })).toThrow(TypeError);
    expect(() => defineValidator("on", { validate: () => {} })).toThrow(TypeError);
    expect(() => defineValidator("e-mail", { validate: () => {} })).toThrow(new TypeError('defineValidator: the name must be an identifier, not "e-mail"'));
    expect(() => defineValidator(undefined as never, { validate: () => {} })).toThrow(TypeError);
    expect(() => defineValidator(7n as never, { validate: () => {} })).toThrow(new TypeError("defineValidator: the name must be an identifier, not 7n"));
    expect(() => defineValidator({ name: "email" } as never, { validate: () => {} })).toThrow(new TypeError('defineValidator: the name must be an identifier, not { name: "email" }'));
    expect(() => defineValidator("nothing", {} as never)).toThrow(new TypeError('defineValidator("nothing"): the validator needs a validate function'));
  });
});

describe("on and if, for the built-in checks too", () => {
  it("a presence check on create leaves updates alone; an if that is false skips the declaration", async () => {
    class Gradual extends PlainRecord("users") {
      static {
        this.validates("email", { presence: true, on: "create" });
        this.validates("age", { numericality: { greaterThan: 17 }, if: async (record: { admin: boolean }) => record.admin });
      }
    }
    const refused = Gradual.build({ name: "Ada" });
    expect(await refused.save()).toBe(false);
    expect(refused.errors.fullMessages()).toEqual(["Email can't be blank"]);
    const member = await Gradual.createOrThrow({ name: "Ada", email: "ada@example.com", age: 12 });
    expect(await member.update({ email: null })).toBe(true);
    expect(await member.update({ admin: true })).toBe(false);
    expect(member.errors.fullMessages()).toEqual(["Age must be greater than 17"]);
  });

  it("on and if of the wrong shape are refused when declared", () => {
    const declare = (options: object) => () => {
      class Odd extends PlainRecord("users") {
        static {
          this.validates("name", { presence: true, ...options });
        }
      }
      return Odd;
    };
    expect(declare({ on: "save" })).toThrow(new TypeError('Odd.validates("name"): on: must be "create" or "update"'));
    expect(declare({ if: true })).toThrow(new TypeError('Odd.validates("name"): if: must be a function of the record'));
  });
});

describe("the type of a registered check's option", () => {
  /** Declares with options as `ValidatorOptions`' merged declarations type them; the errors are the compiler's. */
  function declareTyped(): Function {
    return class Typed extends CheckedRecord("users") {
      static {
        this.validates("email", { email: { domain: "example.com", allowNil: true, message: "is no address" } });
        this.validates("name", { freeName: true, on: "create" });
        // @ts-expect-error a check's own option of the wrong type
        this.validates("email", { email: { domain: 1 } });
        // @ts-expect-error no check is registered as emial
        this.validates("email", { emial: true });
      }
    };
  }

  it("type-checks as declared, and the option the compiler refuses is refused at run time too", () => {
    expect(declareTyped).toThrow(new TypeError('Typed.validates("email"): email: domain: must be a string'));
  });
});

describe("the attributes a registered check reads", () => {
  /** A base whose Models know the check that reads another attribute. */
  class ReadingBase extends CheckedBase {
    static {
      this.use(sameAs);
    }
  }
  const ReadingRecord = defineApplicationRecord(schema, ReadingBase);

  it("are refused at the Model's first use unless they are the Model's, as the declared attribute is", async () => {
    class Confirmed extends ReadingRecord("users") {
      static {
        this.validates("email", { sameAs: { other: "name" }, allowNil: true });
      }
    }
    const record = Confirmed.build({ name: "a@x.org", email: "b@x.org" });
    expect(await record.save()).toBe(false);
    expect(record.errors.fullMessages()).toEqual(["Email must equal name"]);
    class Misnamed extends ReadingRecord("users") {
      static {
        this.validates("email", { sameAs: { other: "nmae" } });
      }
    }
    expect(() => Misnamed.build({ name: "Ada" })).toThrow('Misnamed.validates("email"): Misnamed has no attribute "nmae"');
  });

  it("attributesRead that is no function is refused by defineValidator", () => {
    expect(() => defineValidator("reads", { attributesRead: ["name"] as never, validate: () => {} })).toThrow(
      new TypeError('defineValidator("reads"): attributesRead is a function of the check\'s options'),
    );
  });
});
