import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { connect, type QueryEvent, sql, column, gt, type ScopeStatic } from "../src/index.js";
import { User } from "./models/fixtures.js";

class Member extends User {
  static adults = this.scope((q) => q.where({ age: gt(17) }));
  static named: ScopeStatic<[name: string]> = this.scope((q, name: string) => q.where({ name }));
}

it("scopes and paginate", async () => {
  const events: QueryEvent[] = [];
  const db = connect(env.DB, { onQuery: (e) => events.push(e) });
  const M = db.model(Member);
  for (let i = 0; i < 30; i++) await M.create({ name: `n${i}`, age: i });
  const adults = await M.adults().named("n20").toArray();
  expect(adults.map((u) => u.name)).toEqual(["n20"]);
  const chained = await M.where({ name: ["n19", "n20", "x"] }).adults().order({ age: "desc" }).pluck("name");
  expect(chained).toEqual(["n20", "n19"]);
  events.length = 0;
  const page = await M.adults().paginate({ page: "2", perPage: 5 });
  expect(page.total).toBe(12);
  expect(page.records.length).toBe(5);
  expect(events.length).toBe(2);
  expect(events.every((e) => e.batched)).toBe(true);
  expect(String(M.where(sql`${column("age")} > ${3}`).order({ name: "asc" }))).toMatchInlineSnapshot(`"#<Relation Member SELECT * FROM "users" WHERE ("age" > ?) ORDER BY "name" ASC [3]>"`);
  expect(await M.count()).toBe(30);
  expect(await M.limit(5).offset(28).count()).toBe(2);
  expect((await M.last())!.name).toBe("n29");
  expect(await M.where({ age: Array.from({ length: 10000 }, (_, i) => i) }).count()).toBe(30);
  const [a, b] = await M.find((await M.first())!.id, (await M.last())!.id);
  expect([a.name, b.name]).toEqual(["n0", "n29"]);
});
