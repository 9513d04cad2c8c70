import { useId, type ReactNode } from "react";

/** Every chart is this wide in its own units; it scales to its box. */
export const CHART_WIDTH = 320;

/**
 * A chart's picture: an SVG that scales to its box, named for screen readers
 * by `label` ("Views per day, 1 June to 30 June"), its marks as `children`.
 */
export function ChartSvg({
  height,
  label,
  fontSize,
  children,
}: {
  height: number;
  label: string;
  fontSize: number;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <svg
      viewBox={`0 0 ${CHART_WIDTH} ${height}`}
      className="h-auto w-full"
      role="img"
      aria-labelledby={`${id}-label`}
      fontSize={fontSize}
    >
      <title id={`${id}-label`}>{label}</title>
      {children}
    </svg>
  );
}

/** The value axis: a faint line across the plot at each tick, its value written left of it. */
export function ValueGrid({
  ticks,
  y,
  left,
  right,
  format,
}: {
  ticks: readonly number[];
  /** Where a value sits, top to bottom. */
  y: (value: number) => number;
  left: number;
  right: number;
  format: (value: number) => string;
}) {
  return (
    <>
      {ticks.map((tick) => (
        <g key={tick}>
          <line
            x1={left}
            x2={CHART_WIDTH - right}
            y1={y(tick)}
            y2={y(tick)}
            className="stroke-white/10"
            strokeWidth={1}
          />
          <text x={left - 4} y={y(tick) + 3.5} textAnchor="end" className="fill-slate-400">
            {format(tick)}
          </text>
        </g>
      ))}
    </>
  );
}
