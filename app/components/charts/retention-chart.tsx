import { CHART_WIDTH, ChartSvg, ValueGrid } from "./chart-svg";

import { clockText } from "~/utils/watch-time";

export type RetentionPoint = { share: number; seconds: number; stillWatching: number };

const WIDTH = CHART_WIDTH;
const HEIGHT = 160;
const LEFT = 34;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 20;

/** "1:05:09" or "5:09": a moment of a film, to the nearest second. */
const clock = (seconds: number) => clockText(Math.round(seconds));

/**
 * Audience retention: across the film (left, its start; right, its end), the
 * share of viewings still watching. Where the line falls is where viewers
 * stop. Axis: 0–100 % up the side, the film's clock along the bottom.
 */
export function RetentionChart({
  points,
  label,
  percent,
}: {
  points: readonly RetentionPoint[];
  label: string;
  percent: (share: number) => string;
}) {
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (share: number) => LEFT + share * plotWidth;
  const y = (share: number) => TOP + plotHeight - share * plotHeight;
  const line = points
    .map(
      (point, index) => `${index === 0 ? "M" : "L"}${x(point.share).toFixed(1)} ${y(point.stillWatching).toFixed(1)}`,
    )
    .join(" ");
  const area = points.length > 0 ? `${line} L${x(1)} ${y(0)} L${x(0)} ${y(0)} Z` : "";
  const end = points.at(-1)?.seconds ?? 0;
  return (
    <ChartSvg height={HEIGHT} label={label} fontSize={10}>
      <ValueGrid ticks={[0, 0.5, 1]} y={y} left={LEFT} right={RIGHT} format={percent} />
      <path d={area} className="fill-brand-500/25" />
      <path
        d={line}
        fill="none"
        className="stroke-brand-400"
        strokeWidth={2}
        strokeLinejoin="round"
        data-retention-line
      />
      {points.map((point) => (
        <circle
          key={point.share}
          cx={x(point.share)}
          cy={y(point.stillWatching)}
          r={3}
          className="fill-transparent"
          data-share={point.share}
          data-still={point.stillWatching}
        >
          <title>{`${clock(point.seconds)}: ${percent(point.stillWatching)}`}</title>
        </circle>
      ))}
      {[0, 0.5, 1].map((share) => (
        <text
          key={share}
          x={x(share)}
          y={HEIGHT - 5}
          textAnchor={share === 0 ? "start" : share === 1 ? "end" : "middle"}
          className="fill-slate-400"
        >
          {clock(share * end)}
        </text>
      ))}
    </ChartSvg>
  );
}
