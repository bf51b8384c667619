/** Deterministic `users` rows (snake_case columns, as D1 returns them) for seeding and canned results. */

export const USER_COLUMNS = ["id", "name", "email", "age", "score", "admin", "born_at", "settings", "created_at", "updated_at"];

const BASE_TIME = Date.UTC(2024, 0, 1);

/** A v4-shaped UUID made from `i`, so runs are repeatable. */
function fixedUuid(i) {
  const hex = i.toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
}

/** Row number `i`: every tenth user is an admin; a realistic mix of nulls, JSON and dates. */
export function userRow(i) {
  const createdAt = new Date(BASE_TIME + i * 60_000).toISOString();
  return {
    id: fixedUuid(i),
    name: `User ${i}`,
    email: `user${i}@example.com`,
    age: 18 + (i % 60),
    score: i % 7 === 0 ? null : (i % 100) / 7,
    admin: i % 10 === 0 ? 1 : 0,
    born_at: i % 3 === 0 ? null : new Date(Date.UTC(1970 + (i % 40), i % 12, 1 + (i % 28))).toISOString(),
    settings: i % 2 === 0 ? JSON.stringify({ theme: i % 4 === 0 ? "dark" : "light", digest: i % 5 === 0 }) : null,
    created_at: createdAt,
    updated_at: createdAt,
  };
}

export function userRows(count) {
  return Array.from({ length: count }, (_, i) => userRow(i + 1));
}
