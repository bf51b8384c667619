import { describe, expect, it } from "vitest";

describe("node environment", () => {
  it("runs on Node >= 22.13", () => {
    const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
    expect(
      major > 22 || (major === 22 && minor >= 13),
      `running on Node ${process.versions.node} (${process.execPath}); run vitest through npm/npx so node_modules/.bin/node (v22) is used`,
    ).toBe(true);
  });

  it("is plain Node, not workerd", () => {
    expect(typeof process.versions.node).toBe("string");
    expect(typeof navigator === "undefined" ? "" : navigator.userAgent).not.toBe("Cloudflare-Workers");
  });
});
