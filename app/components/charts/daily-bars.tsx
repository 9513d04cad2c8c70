import { CHART_WIDTH, ChartSvg, ValueGrid } from "./chart-svg";

import { dateFormatter } from "~/utils/dates";
import { niceTicks, scaled } from "./scale";

export type DailyPoint = { day: string; value: number };

const WIDTH = CHART_WIDTH;
const HEIGHT = 150;
/** The least room left of the bars for the value labels; wider labels ("₦150,000") get what they need. */
const MIN_LEFT = 26;
/** About how wide one character of an axis label is at its font size (10 units), with the ₦ sign's room. */
const LABEL_CHAR_WIDTH = 6;
const RIGHT = 6;
const TOP = 8;
const BOTTOM = 20;

/** A day (YYYY-MM-DD) as noon of that day in UTC, so every zone's formatter names the same date. */
const noon = (day: string) => new Date(`${day}T12:00:00Z`);

/**
 * One bar per day, read left (oldest) to right (today), on a 320-unit-wide
 * picture that fills its box: the height a phone needs, axis labels at the
 * phone's text size. The first, middle and last days are named under the
 * bars; each bar carries its day and value for screen readers and tooltips.
 */
export function DailyBars({
  points,
  language,
  format,
  label,
  line = false,
}: {
  points: readonly DailyPoint[];
  language: string;
  format: (value: number) => string;
  /** What the picture shows, for screen readers ("Views per day, 1 June to 30 June"). */
  label: string;
  /** Draw a line through the values instead of bars (a level, such as passes active). */
  line?: boolean;
}) {
  const dates = dateFormatter(language, "dayMonth");
  const max = Math.max(0, ...points.map((point) => point.value));
  const ticks = niceTicks(max, 3);
  const top = ticks.at(-1)!;
  // The widest value label sets the room on the left, so "₦150,000" is never cut at the picture's edge.
  const LEFT = Math.max(MIN_LEFT, 6 + Math.max(...ticks.map((tick) => format(tick).length)) * LABEL_CHAR_WIDTH);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = plotWidth / Math.max(1, points.length);
  const gap = slot > 4 ? 1 : 0.3;
  const y = (value: number) => TOP + plotHeight - scaled(value, top, plotHeight);
  const named = points.length > 0 ? [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])] : [];
  const path = points
    .map(
      (point, index) =>
        `${index === 0 ? "M" : "L"}${(LEFT + slot * (index + 0.5)).toFixed(1)} ${y(point.value).toFixed(1)}`,
    )
    .join(" ");
  return (
    <ChartSvg height={HEIGHT} label={label} fontSize={10}>
      <ValueGrid ticks={ticks} y={y} left={LEFT} right={RIGHT} format={format} />
      {line ? (
        <path d={path} fill="none" className="stroke-brand-400" strokeWidth={2} strokeLinejoin="round" />
      ) : (
        points.map((point, index) => {
          const height = scaled(point.value, top, plotHeight);
          return (
            <rect
              key={point.day}
              x={LEFT + slot * index + gap / 2}
              y={TOP + plotHeight - height}
              width={Math.max(0.5, slot - gap)}
              height={height}
              className="fill-brand-500"
              data-day={point.day}
              data-value={point.value}
            >
              <title>{`${dates.format(noon(point.day))}: ${format(point.value)}`}</title>
            </rect>
          );
        })
      )}
      {named.map((index) => (
        <text
          key={index}
          x={LEFT + slot * (index + 0.5)}
          y={HEIGHT - 5}
          textAnchor={index === 0 ? "start" : index === points.length - 1 ? "end" : "middle"}
          className="fill-slate-400"
        >
          {dates.format(noon(points[index]!.day))}
        </text>
      ))}
    </ChartSvg>
  );
}
