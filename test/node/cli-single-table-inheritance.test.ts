// `g model <Name> --parent <Model>`: a single-table-inheritance subclass, declared in its parent's file and listed
// among the hierarchy's types, a file of its own re-exporting it, and no migration; the hint when the table lacks
// the column that stores each row's class; the refusals. Runs the built `dist/cli.mjs`. That the files compile and
// that a query of the parent gives records of the subclass on D1 is tested in generated-app.test.ts.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { app, ok, read, refused, snapshot, write } from "./helpers/cli-app.js";

const USER_WITH_ADMIN = `import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users") {
  static {
    this.inheritance(() => ({ Admin }));
  }
}

export class Admin extends User {}
`;

const ADMIN_FILE = `// Admin is declared in user.ts, beside the Model whose table it shares, which lists it among its types.
export { Admin } from "./user.js";
`;

function migrations(folder: string): string[] {
  return readdirSync(path.join(folder, "migrations")).sort();
}

describe("g model <Name> --parent <Model> (guide: A subclass sharing its parent's table)", { timeout: 30_000 }, () => {
  it("declares the subclass in the parent's file, re-exports it from its own, writes no migration, and hints at the missing type column", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!");
    const schema = read(folder, "src/db/schema.ts");
    const output = ok(folder, "g", "model", "Admin", "--parent", "User");
    expect(output).toBe(
      [
        "update     src/models/user.ts (declares Admin, one of its inheritance types)",
        "create     src/models/admin.ts",
        "note: users has no type column, which stores the class of each row: npx recordflare g migration AddTypeToUsers type:string",
        "",
      ].join("\n"),
    );
    expect(read(folder, "src/models/user.ts")).toBe(USER_WITH_ADMIN);
    expect(read(folder, "src/models/admin.ts")).toBe(ADMIN_FILE);
    expect(migrations(folder)).toEqual(["0001_create_users.sql"]);
    expect(read(folder, "src/db/schema.ts")).toBe(schema);
  });

  it("gives no hint once the table has a type column; another subclass, and a subclass of the subclass, join the same types", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!");
    ok(folder, "g", "migration", "AddTypeToUsers", "type:string");
    expect(ok(folder, "g", "model", "Admin", "--parent", "user")).toBe(
      "update     src/models/user.ts (declares Admin, one of its inheritance types)\ncreate     src/models/admin.ts\n",
    );
    ok(folder, "g", "model", "SuperAdmin", "--parent", "Admin");
    ok(folder, "g", "model", "guest", "--parent=User");
    expect(read(folder, "src/models/user.ts")).toBe(`import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users") {
  static {
    this.inheritance(() => ({ Guest, SuperAdmin, Admin }));
  }
}

export class Admin extends User {}

export class SuperAdmin extends Admin {}

export class Guest extends User {}
`);
    expect(read(folder, "src/models/super-admin.ts")).toBe(
      `// SuperAdmin is declared in user.ts, beside the Model whose table it shares, which lists it among its types.\nexport { SuperAdmin } from "./user.js";\n`,
    );
    expect(migrations(folder)).toEqual(["0001_create_users.sql", "0002_add_type_to_users.sql"]);
  });

  it("opens the class body after a parent expression holding braces, and keeps the Model's own declarations", () => {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!", "type", "admin:integer");
    write(
      folder,
      "src/models/user.ts",
      `import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users", { admin: "boolean", name: { default: "{a}" } }) {
  static {
    this.validates("name", { presence: true });
  }
}
`,
    );
    expect(ok(folder, "g", "model", "Admin", "--parent", "User")).not.toContain("note:");
    expect(read(folder, "src/models/user.ts")).toBe(`import { ApplicationRecord } from "./application-record.js";

export class User extends ApplicationRecord("users", { admin: "boolean", name: { default: "{a}" } }) {
  static {
    this.inheritance(() => ({ Admin }));
  }

  static {
    this.validates("name", { presence: true });
  }
}

export class Admin extends User {}
`);
  });

  it("hints at the column the declaration names, and at a type column that is not a string column", () => {
    const folder = app();
    ok(folder, "g", "model", "Vehicle", "kind:integer");
    write(
      folder,
      "src/models/vehicle.ts",
      `import { ApplicationRecord } from "./application-record.js";

export class Vehicle extends ApplicationRecord("vehicles") {
  static {
    this.inheritance(() => ({ Car }), { column: "category" });
  }
}

export class Car extends Vehicle {}
`,
    );
    expect(ok(folder, "g", "model", "Truck", "--parent", "Vehicle")).toContain(
      "note: vehicles has no category column, which stores the class of each row: npx recordflare g migration AddCategoryToVehicles category:string\n",
    );
    const other = app();
    ok(other, "g", "model", "Vehicle", "type:integer");
    expect(ok(other, "g", "model", "Car", "--parent", "Vehicle")).toContain(
      "note: vehicles.type is INTEGER, not a string column; it must hold each row's class name as text.\n",
    );
  });
});

describe("g model --parent refusals, writing nothing", { timeout: 30_000 }, () => {
  function withUser(): string {
    const folder = app();
    ok(folder, "g", "model", "User", "name:string!");
    return folder;
  }

  it("an unknown parent, named, and a parent file that declares no such class", () => {
    const folder = withUser();
    expect(refused(folder, "g", "model", "Admin", "--parent", "Account")).toBe(
      "Error: --parent Account: there is no Model Account (src/models/account.ts does not exist).",
    );
    expect(refused(folder, "g", "model", "Admin", "--parent", "ApplicationRecord")).toBe("Error: ApplicationRecord is the app's base class; choose another Model name.");
    write(folder, "src/models/account.ts", "export const Account = 1;\n");
    expect(refused(folder, "g", "model", "Admin", "--parent", "Account")).toBe("Error: --parent Account: src/models/account.ts does not declare export class Account.");
    expect(refused(folder, "g", "model", "Admin", "--parent")).toBe("Error: --parent takes the name of the Model whose table the subclass shares: --parent User");
    expect(refused(folder, "g", "model", "Admin", "--parent", "9Lives")).toMatch(/^Error: "9Lives" is not a Model name/);
  });

  it("a name a Model has already: its file, a class another Model file declares, the parent itself", () => {
    const folder = withUser();
    ok(folder, "g", "model", "Post");
    expect(refused(folder, "g", "model", "Post", "--parent", "User")).toBe("Error: src/models/post.ts already exists: Post is a Model already; choose another name.");
    write(folder, "src/models/legacy.ts", 'import { ApplicationRecord } from "./application-record.js";\n\nexport class Owner extends ApplicationRecord("owners") {}\n');
    expect(refused(folder, "g", "model", "Owner", "--parent", "User")).toBe("Error: src/models/legacy.ts already declares Owner; choose another name.");
    expect(refused(folder, "g", "model", "User", "--parent", "User")).toBe("Error: --parent User: a Model cannot be its own parent.");
    const before = snapshot(folder);
    ok(folder, "g", "model", "Admin", "--parent", "User");
    expect(Object.keys(snapshot(folder)).length).toBe(Object.keys(before).length + 1);
    expect(refused(folder, "g", "model", "Admin", "--parent", "Post")).toBe("Error: src/models/admin.ts already exists: Admin is a Model already; choose another name.");
  });

  it("columns or --id, which belong to the parent's table, and a declaration of the types the generator does not edit", () => {
    const folder = withUser();
    expect(refused(folder, "g", "model", "Admin", "level:integer", "--parent", "User")).toBe(
      "Error: Admin shares the table of User, so it takes no columns; add them with g migration Add<Columns>To<Table>.",
    );
    expect(refused(folder, "g", "model", "Admin", "--parent", "User", "--id", "integer")).toBe("Error: Admin shares the table and the keys of User, so it takes no --id.");
    write(
      folder,
      "src/models/user.ts",
      'import { ApplicationRecord } from "./application-record.js";\n\nconst types = () => ({});\nexport class User extends ApplicationRecord("users") {\n  static {\n    this.inheritance(types);\n  }\n}\n',
    );
    expect(refused(folder, "g", "model", "Admin", "--parent", "User")).toBe(
      "Error: --parent User: src/models/user.ts declares its inheritance types in a form the generator does not edit; declare export class Admin extends User {} there and add Admin to the types by hand.",
    );
  });
});
