// The guide: an index (docs/guide.md) and its chapters (docs/guide/*.md), shipped in the package; every link between
// them, and every link into them from the README, reaches a file and a heading that exist.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const chapters = readdirSync(path.join(root, "docs/guide")).filter((file) => file.endsWith(".md")).map((file) => `docs/guide/${file}`);
const guideFiles = ["docs/guide.md", ...chapters];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}_\- ]/gu, "").replaceAll(" ", "-");
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of readFileSync(path.join(root, file), "utf8").split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && /^#{1,6} (.*)$/.exec(line);
    if (heading) anchors.add(anchorOf(heading[1]!));
  }
  return anchors;
}

/** The relative links of a Markdown file that point at Markdown files or anchors, outside code blocks. */
function linksOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8").replace(/```[\s\S]*?```/g, "");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!).filter((target) => target.startsWith("#") || /^[^:]+\.md(#|$)/.test(target));
}

describe("the guide", () => {
  it("has an index linking every chapter, each chapter linking back to it", () => {
    const index = readFileSync(path.join(root, "docs/guide.md"), "utf8");
    expect(chapters.length).toBeGreaterThanOrEqual(8);
    for (const chapter of chapters) {
      expect(index).toContain(`](${chapter.slice("docs/".length)})`);
      expect(readFileSync(path.join(root, chapter), "utf8")).toContain("[The guide](../guide.md)");
    }
  });

  it("every link between its files, and from the README, reaches a file and a heading that exist", () => {
    const broken: string[] = [];
    for (const file of [...guideFiles, "README.md"]) {
      for (const link of linksOf(file)) {
        const [target = "", anchor] = link.split("#");
        const linked = target === "" ? file : path.posix.join(path.posix.dirname(file), target);
        if (!existsSync(path.join(root, linked))) broken.push(`${file}: ${link} (no file ${linked})`);
        else if (anchor !== undefined && !anchorsOf(linked).has(anchor)) broken.push(`${file}: ${link} (no heading #${anchor} in ${linked})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
