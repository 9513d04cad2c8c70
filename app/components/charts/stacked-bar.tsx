import { CHART_WIDTH, ChartSvg } from "./chart-svg";

export type Segment = { id: string; label: string; value: number; className: string };

const WIDTH = CHART_WIDTH;

/**
 * One bar split into parts of a whole (the disk: films, ladders, work in
 * progress, other, free), with a legend of each part and its value.
 */
export function StackedBar({
  segments,
  format,
  label,
}: {
  segments: readonly Segment[];
  format: (value: number) => string;
  label: string;
}) {
  const total = segments.reduce((sum, segment) => sum + Math.max(0, segment.value), 0);
  let x = 0;
  const legendTop = 34;
  const height = legendTop + segments.length * 18;
  return (
    <ChartSvg height={height} label={label} fontSize={11}>
      {segments.map((segment) => {
        const width = total > 0 ? (Math.max(0, segment.value) / total) * WIDTH : 0;
        const rect = (
          <rect
            key={segment.id}
            x={x}
            y={4}
            width={width}
            height={20}
            className={segment.className}
            data-segment={segment.id}
            data-value={segment.value}
          >
            <title>{`${segment.label}: ${format(segment.value)}`}</title>
          </rect>
        );
        x += width;
        return rect;
      })}
      {segments.map((segment, index) => (
        <g key={segment.id} transform={`translate(0 ${legendTop + index * 18})`}>
          <rect x={0} y={0} width={10} height={10} rx={2} className={segment.className} />
          <text x={16} y={9} className="fill-slate-200">
            {segment.label}
          </text>
          <text x={WIDTH} y={9} textAnchor="end" className="fill-slate-300 tabular-nums">
            {format(segment.value)}
          </text>
        </g>
      ))}
    </ChartSvg>
  );
}
