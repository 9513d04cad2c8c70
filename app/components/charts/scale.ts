/**
 * The little geometry the dashboards' charts need, written out rather than
 * taken from a charting library (decision 052): a linear scale from zero and
 * "nice" axis steps (1, 2 or 5 times a power of ten). Shared by server and
 * browser, so a chart renders the same on both.
 */

/** Up to about `count` round steps from 0 that cover `max` (at least one step, even for 0). */
export function niceTicks(max: number, count = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let value = 0; value < max + step * 1e-9; value += step) ticks.push(Math.round(value / step) * step);
  if (ticks.at(-1)! < max) ticks.push(ticks.at(-1)! + step);
  return ticks;
}

/** A value's position along `length` units, for a scale from 0 to `top`. */
export function scaled(value: number, top: number, length: number): number {
  return top > 0 ? (Math.max(0, value) / top) * length : 0;
}

/** A number cut to at most `decimals` places, without float noise (0.1 + 0.2 → 0.3). */
export function rounded(value: number, decimals = 2): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Text that fits roughly `chars` characters at the charts' font size, with an ellipsis when cut. */
export function clipText(text: string, chars: number): string {
  return text.length <= chars ? text : `${text.slice(0, Math.max(1, chars - 1)).trimEnd()}…`;
}
