import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { connect } from "../src/index.js";
import { User } from "./models/fixtures.js";

it("connect({ session }) queries through a D1 session and exposes its bookmark", async () => {
  const db = connect(env.DB, { session: "first-primary" });
  const user = await db.model(User).create({ name: "Ada" });
  expect((await db.model(User).find(user.id)).name).toBe("Ada");
  const bookmark = db.bookmark();
  expect(typeof bookmark).toBe("string");
  const later = connect(env.DB, { session: bookmark! });
  expect(await later.model(User).count()).toBe(1);
});

it("a database without a session has no bookmark", () => {
  expect(connect(env.DB).bookmark()).toBeNull();
});
