import { alpha, useTheme } from '@mui/material/styles';
import { ChartFrame } from './ChartFrame';
import type { ChartPoint } from './BarChart';
import { labelIndexes, yTicksAround } from './chartScale';

interface LineChartProps {
  title: string;
  summary: string;
  points: ChartPoint[];
  headers: [string, string];
  formatValue: (value: number) => string;
}

export function LineChart({ title, summary, points, headers, formatValue }: LineChartProps) {
  const theme = useTheme();
  const values = points.map((p) => p.value);
  const ticks = yTicksAround(values.length ? Math.min(...values) : 0, Math.max(0, ...values));
  const color = theme.palette.primary.main;
  return (
    <ChartFrame
      title={title}
      summary={summary}
      yTicks={ticks}
      formatY={formatValue}
      table={{ headers, rows: points.map((p) => [p.label, formatValue(p.value)]) }}
    >
      {({ width, height, y }) => {
        const x = (i: number) => (points.length <= 1 ? width / 2 : (i * width) / (points.length - 1));
        const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
        // Weekly points: a label every 1, 2, 4 or 8 weeks.
        const labelled = labelIndexes(points.length, Math.max(2, Math.floor(width / 80)), [1, 2, 4, 8]);
        return (
          <>
            {points.length > 1 && <polygon points={`0,${height} ${line} ${width},${height}`} fill={alpha(color, 0.15)} />}
            <polyline points={line} fill="none" stroke={color} strokeWidth={2.5} strokeLinejoin="round" />
            {points.map((point, i) => (
              <circle key={point.key} cx={x(i)} cy={y(point.value)} r={3.5} fill={theme.palette.background.paper} stroke={color} strokeWidth={2}>
                <title>{`${point.label}: ${formatValue(point.value)}`}</title>
              </circle>
            ))}
            {labelled.map((i) => (
              <text
                key={points[i]!.key}
                x={x(i)}
                y={height + 18}
                textAnchor={i === 0 ? 'start' : i === points.length - 1 ? 'end' : 'middle'}
                fill={theme.palette.text.secondary}
                fontSize={12}
                fontFamily={theme.typography.fontFamily}
              >
                {points[i]!.label}
              </text>
            ))}
          </>
        );
      }}
    </ChartFrame>
  );
}
