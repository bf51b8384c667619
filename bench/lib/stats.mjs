/** Small statistics helpers for benchmark samples. */

export function quantile(values, q) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

export const median = (values) => quantile(values, 0.5);

/** Median with the interquartile range, rounded for reports. */
export function summarize(values, digits = 2) {
  const round = (x) => Number(x.toFixed(digits));
  return { median: round(median(values)), p25: round(quantile(values, 0.25)), p75: round(quantile(values, 0.75)), n: values.length };
}
