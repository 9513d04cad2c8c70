import { CHART_WIDTH, ChartSvg } from "./chart-svg";

import { clipText, niceTicks, scaled } from "./scale";

export type LabelledValue = { id: string; label: string; value: number };

const WIDTH = CHART_WIDTH;
const ROW = 30;
const TOP = 4;

/**
 * One bar per row, longest first as given: the name above its bar (so long
 * titles read on a phone), the value at the bar's right end. `top` fixes the
 * scale (1 for shares, so 100 % fills the width); else it follows the values.
 */
export function HorizontalBars({
  bars,
  format,
  label,
  top: fixedTop,
}: {
  bars: readonly LabelledValue[];
  format: (value: number) => string;
  label: string;
  top?: number;
}) {
  const top = fixedTop ?? niceTicks(Math.max(0, ...bars.map((bar) => bar.value)), 4).at(-1)!;
  const height = TOP + bars.length * ROW;
  return (
    <ChartSvg height={height} label={label} fontSize={11}>
      {bars.map((bar, index) => {
        const y = TOP + index * ROW;
        const value = format(bar.value);
        return (
          <g key={bar.id} data-bar={bar.id} data-value={bar.value}>
            <title>{`${bar.label}: ${value}`}</title>
            <text x={0} y={y + 10} className="fill-slate-200">
              {clipText(bar.label, 44 - value.length)}
            </text>
            <text x={WIDTH} y={y + 10} textAnchor="end" className="fill-slate-300 tabular-nums">
              {value}
            </text>
            <rect x={0} y={y + 14} width={WIDTH} height={9} rx={2} className="fill-white/5" />
            <rect
              x={0}
              y={y + 14}
              width={Math.max(bar.value > 0 ? 1.5 : 0, scaled(bar.value, top, WIDTH))}
              height={9}
              rx={2}
              className="fill-brand-500"
            />
          </g>
        );
      })}
    </ChartSvg>
  );
}
