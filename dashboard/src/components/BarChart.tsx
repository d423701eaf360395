import { useId } from 'react';
import { useWidth } from '../lib/hooks';

export type ChartSeries = { name: string; className: string };
export type ChartDay = { label: string; longLabel: string; values: number[] };

/** A "nice" upper bound for an axis: 1, 2, 2.5 or 5 times a power of ten. */
function niceMax(value: number): number {
  if (value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (value <= step * power) return step * power;
  return 10 * power;
}

/**
 * Grouped daily bars, drawn by React as inline SVG at the element's real width (no chart library).
 * Screen readers get `summary` and each bar's <title>; the page also offers the numbers as a table.
 */
export function BarChart({
  days,
  series,
  summary,
  formatValue,
  height = 220,
  integer = false,
}: {
  days: ChartDay[];
  series: ChartSeries[];
  summary: string;
  formatValue: (value: number) => string;
  height?: number;
  /** Counts: no tick between whole numbers (a 0–1 axis is not labelled 0, 1, 1). */
  integer?: boolean;
}) {
  const [ref, width] = useWidth<HTMLDivElement>();
  const titleId = useId();
  const max = niceMax(Math.max(0, ...days.flatMap((d) => d.values)));
  const left = 8 + Math.max(formatValue(max).length, 2) * 7.5;
  const right = 8;
  const top = 10;
  const bottom = 28;
  const plotW = Math.max(10, width - left - right);
  const plotH = height - top - bottom;
  const slot = plotW / Math.max(1, days.length);
  const groupW = slot * 0.78;
  const barW = groupW / series.length;
  const y = (v: number) => top + plotH - (v / max) * plotH;
  // As many day labels as fit side by side (an average glyph is about 6.5 px at 11 px).
  const labelWidth = Math.max(...days.map((d) => d.label.length), 3) * 6.5 + 14;
  const labelEvery = Math.max(1, Math.ceil(days.length / Math.max(2, Math.floor(plotW / labelWidth))));
  const ticks = [0, max / 2, max].filter((tick) => !integer || Number.isInteger(tick));
  return (
    <div className="chart" ref={ref}>
      <svg width={width} height={height} role="img" aria-labelledby={titleId} className="chart-svg">
        <title id={titleId}>{summary}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line className="grid" x1={left} x2={left + plotW} y1={y(tick)} y2={y(tick)} />
            <text className="axis" x={left - 6} y={y(tick) + 4} textAnchor="end">
              {formatValue(tick)}
            </text>
          </g>
        ))}
        {days.map((day, i) => (
          <g key={i}>
            {day.values.map((value, s) => {
              const h = Math.max(value > 0 ? 1.5 : 0, (value / max) * plotH);
              return (
                <rect
                  key={s}
                  className={series[s]!.className}
                  x={left + i * slot + (slot - groupW) / 2 + s * barW}
                  y={top + plotH - h}
                  width={Math.max(1, barW - 1)}
                  height={h}
                  rx={1}
                >
                  <title>{`${day.longLabel}: ${series[s]!.name} ${formatValue(value)}`}</title>
                </rect>
              );
            })}
            {(days.length - 1 - i) % labelEvery === 0 && (
              // The last label ends at the plot's edge rather than running past it.
              <text
                className="axis"
                x={i === days.length - 1 ? left + plotW : left + i * slot + slot / 2}
                y={height - 8}
                textAnchor={i === days.length - 1 ? 'end' : 'middle'}
              >
                {day.label}
              </text>
            )}
          </g>
        ))}
        <line className="baseline" x1={left} x2={left + plotW} y1={top + plotH} y2={top + plotH} />
      </svg>
      {series.length > 1 && (
        <ul className="legend" aria-hidden="true">
          {series.map((s) => (
            <li key={s.name}>
              <svg width="12" height="12">
                <rect className={s.className} width="12" height="12" rx="2" />
              </svg>
              {s.name}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
