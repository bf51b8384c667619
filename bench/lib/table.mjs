/** Plain-text tables for the terminal. */

/**
 * @param {string[]} headers
 * @param {Array<Array<string | number>>} rows
 * @param {{ align?: Array<"left" | "right"> }} [options] per column; numbers default to right.
 */
export function formatTable(headers, rows, { align = [] } = {}) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]?.length ?? 0)));
  const alignOf = (column) => align[column] ?? (column === 0 ? "left" : "right");
  const line = (row) =>
    row.map((cell, column) => (alignOf(column) === "left" ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join("  ");
  const rule = widths.map((width) => "-".repeat(width)).join("  ");
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join("\n");
}

export function heading(title) {
  return `\n${title}\n${"=".repeat(title.length)}`;
}
