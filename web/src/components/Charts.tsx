// The overview's two charts, drawn as SVG with visx (scales, axes and bars; about a tenth of the bytes of a
// full chart library, so the overview stays inside its transfer budget). Colours are Mantine's CSS
// variables, so the charts follow light and dark mode. The numbers are also on the page as text: the
// charts are marked aria-hidden.
import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { ParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';

const AXIS = 'var(--mantine-color-dimmed)';
const tickLabel = () => ({ fill: AXIS, fontSize: 11, textAnchor: 'middle' as const });

/** One horizontal bar per row, scaled to the largest count. */
export function HorizontalBars({
  rows,
  height,
}: {
  rows: { key: string; count: number; color: string }[];
  height: number;
}) {
  return (
    <div style={{ height }} aria-hidden>
      <ParentSize>
        {({ width }) => {
          const y = scaleBand({ domain: rows.map((r) => r.key), range: [0, height], padding: 0.35 });
          const x = scaleLinear({ domain: [0, Math.max(1, ...rows.map((r) => r.count))], range: [0, width] });
          return (
            <svg width={width} height={height}>
              {rows.map((r) => (
                <Bar
                  key={r.key}
                  x={0}
                  y={y(r.key)}
                  width={Math.max(r.count ? 2 : 0, x(r.count))}
                  height={y.bandwidth()}
                  fill={r.color}
                  rx={2}
                />
              ))}
            </svg>
          );
        }}
      </ParentSize>
    </div>
  );
}

/** Two bars per day (new and fixed) with a day axis and a count axis. */
export function DailyBars({
  days,
  height,
  series,
}: {
  days: { label: string; values: number[] }[];
  height: number;
  series: { name: string; color: string }[];
}) {
  const margin = { top: 8, right: 8, bottom: 24, left: 32 };
  return (
    <div style={{ height }} aria-hidden>
      <ParentSize>
        {({ width }) => {
          const innerW = Math.max(0, width - margin.left - margin.right);
          const innerH = height - margin.top - margin.bottom;
          const x = scaleBand({ domain: days.map((d) => d.label), range: [0, innerW], padding: 0.25 });
          const inner = scaleBand({ domain: series.map((s) => s.name), range: [0, x.bandwidth()], padding: 0.1 });
          const max = Math.max(1, ...days.flatMap((d) => d.values));
          const y = scaleLinear({ domain: [0, max], range: [innerH, 0], nice: true });
          const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(innerW / 48))));
          return (
            <svg width={width} height={height}>
              <Group left={margin.left} top={margin.top}>
                {days.map((d) =>
                  d.values.map((v, i) => (
                    <Bar
                      key={`${d.label}-${i}`}
                      x={(x(d.label) ?? 0) + (inner(series[i]!.name) ?? 0)}
                      y={y(v)}
                      width={inner.bandwidth()}
                      height={innerH - y(v)}
                      fill={series[i]!.color}
                    />
                  )),
                )}
                <AxisLeft
                  scale={y}
                  numTicks={Math.min(4, max)}
                  tickFormat={(v) => String(v)}
                  stroke={AXIS}
                  tickStroke={AXIS}
                  tickLabelProps={() => ({ ...tickLabel(), textAnchor: 'end', dx: -4, dy: 3 })}
                />
                <AxisBottom
                  top={innerH}
                  scale={x}
                  tickValues={days.filter((_, i) => i % every === 0).map((d) => d.label)}
                  stroke={AXIS}
                  tickStroke={AXIS}
                  tickLabelProps={tickLabel}
                />
              </Group>
            </svg>
          );
        }}
      </ParentSize>
    </div>
  );
}
