import type { ReactNode } from 'react';
import { useId } from 'react';
import { Box } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useMeasuredWidth } from './useMeasuredWidth';
import { visuallyHidden } from '@mui/utils';

export const CHART_HEIGHT = 220;
// The top margin holds a legend (the bar chart's average) clear of the data.
export const MARGIN = { top: 28, right: 16, bottom: 28, left: 56 };

export interface PlotArea {
  width: number;
  height: number;
  /** y pixel of a value on the axis running from ticks[0] to the last tick */
  y: (value: number) => number;
}

interface ChartFrameProps {
  /** The chart's name, also its accessible name. */
  title: string;
  /** One sentence read to screen readers instead of the drawing. */
  summary: string;
  yTicks: number[];
  formatY: (value: number) => string;
  /** The data as a table for screen readers: header pair and rows. */
  table: { headers: [string, string]; rows: [string, string][] };
  children: (area: PlotArea) => ReactNode;
}

/** Axes, grid and accessible wrapping shared by the dashboard charts; the children draw the data. */
export function ChartFrame({ title, summary, yTicks, formatY, table, children }: ChartFrameProps) {
  const theme = useTheme();
  const { ref, width } = useMeasuredWidth<HTMLDivElement>();
  const titleId = useId();
  const descId = useId();
  const area = { width: Math.max(40, width - MARGIN.left - MARGIN.right), height: CHART_HEIGHT - MARGIN.top - MARGIN.bottom };
  const bottom = yTicks[0] ?? 0;
  const top = yTicks[yTicks.length - 1] ?? 1;
  const y = (value: number) => area.height - ((value - bottom) / (top - bottom || 1)) * area.height;
  const label = { fill: theme.palette.text.secondary, fontSize: 12, fontFamily: theme.typography.fontFamily };

  return (
    <Box ref={ref} sx={{ width: '100%' }}>
      <svg width={width} height={CHART_HEIGHT} role="img" aria-labelledby={`${titleId} ${descId}`} style={{ display: 'block' }}>
        <title id={titleId}>{title}</title>
        <desc id={descId}>{summary}</desc>
        <g transform={`translate(${MARGIN.left},${MARGIN.top})`}>
          {yTicks.map((tick) => (
            <g key={tick}>
              <line x1={0} x2={area.width} y1={y(tick)} y2={y(tick)} stroke={theme.palette.divider} />
              <text x={-8} y={y(tick)} dy="0.32em" textAnchor="end" {...label}>
                {formatY(tick)}
              </text>
            </g>
          ))}
          {children({ ...area, y })}
        </g>
      </svg>
      <Box component="table" sx={visuallyHidden}>
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{table.headers[0]}</th>
            <th scope="col">{table.headers[1]}</th>
          </tr>
        </thead>
        <tbody>
          {table.rows.map(([a, b]) => (
            <tr key={a}>
              <td>{a}</td>
              <td>{b}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
