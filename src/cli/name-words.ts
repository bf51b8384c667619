/**
 * The shape of a Model or migration name: words of letters and digits, the first starting with a letter, each joined
 * to the next by one separator. Files and tables are named after the words (`src/models/blog-post.ts`,
 * `<nnnn>_add_email_to_users.sql`), as Rails' generators name them: a separator at an end, or two in a row, would
 * leave a stray `_` or `-` in them (`Link_` would be `link-.ts`, `CreatePosts_` would make a table `posts_`) or give
 * two names one file (`Link__Item` and `LinkItem`, both `link-item.ts`), so such a name is refused.
 */

/** Whether `name` is words of ASCII letters and digits, the first starting with a letter, joined by single `separators`. */
export function isWordsName(name: string, separators: string): boolean {
  const [first, ...rest] = name.split(new RegExp(`[${separators}]`));
  return /^[A-Za-z][A-Za-z0-9]*$/.test(first!) && rest.every((word) => /^[A-Za-z0-9]+$/.test(word));
}
