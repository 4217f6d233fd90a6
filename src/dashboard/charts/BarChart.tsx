import { useTheme } from '@mui/material/styles';
import { ChartFrame, MARGIN } from './ChartFrame';
import { labelIndexes, yTicks } from './chartScale';

export interface ChartPoint {
  key: string;
  /** short axis label, e.g. 'Oct 23' */
  label: string;
  value: number;
}

interface BarChartProps {
  title: string;
  summary: string;
  points: ChartPoint[];
  /** A dashed line across the bars, e.g. their average. */
  reference?: { value: number; label: string };
  headers: [string, string];
  formatValue: (value: number) => string;
}

export function BarChart({ title, summary, points, reference, headers, formatValue }: BarChartProps) {
  const theme = useTheme();
  const ticks = yTicks(Math.max(1, reference?.value ?? 0, ...points.map((p) => p.value)));
  return (
    <ChartFrame
      title={title}
      summary={summary}
      yTicks={ticks}
      formatY={formatValue}
      table={{ headers, rows: points.map((p) => [p.label, formatValue(p.value)]) }}
    >
      {({ width, height, y }) => {
        const slot = width / Math.max(1, points.length);
        const barWidth = Math.max(1, slot * 0.7);
        const labelled = labelIndexes(points.length, Math.max(2, Math.floor(width / 70)));
        return (
          <>
            {points.map((point, i) => (
              <rect
                key={point.key}
                x={i * slot + (slot - barWidth) / 2}
                y={y(point.value)}
                width={barWidth}
                height={Math.max(0, height - y(point.value))}
                rx={Math.min(3, barWidth / 4)}
                fill={theme.palette.primary.main}
              >
                <title>{`${point.label}: ${formatValue(point.value)}`}</title>
              </rect>
            ))}
            {labelled.map((i) => (
              <text
                key={points[i]!.key}
                x={i * slot + slot / 2}
                y={height + 18}
                textAnchor="middle"
                fill={theme.palette.text.secondary}
                fontSize={12}
                fontFamily={theme.typography.fontFamily}
              >
                {points[i]!.label}
              </text>
            ))}
            {reference && (
              <g>
                <line
                  x1={0}
                  x2={width}
                  y1={y(reference.value)}
                  y2={y(reference.value)}
                  stroke={theme.palette.text.primary}
                  strokeWidth={2}
                  strokeDasharray="6 4"
                />
                {/* The label is a legend above the plot, never over the bars it describes. */}
                <line x1={0} x2={22} y1={-MARGIN.top / 2} y2={-MARGIN.top / 2} stroke={theme.palette.text.primary} strokeWidth={2} strokeDasharray="6 4" />
                <text
                  x={30}
                  y={-MARGIN.top / 2}
                  dy="0.32em"
                  fill={theme.palette.text.primary}
                  fontSize={12}
                  fontWeight={600}
                  fontFamily={theme.typography.fontFamily}
                >
                  {reference.label}
                </text>
              </g>
            )}
          </>
        );
      }}
    </ChartFrame>
  );
}
