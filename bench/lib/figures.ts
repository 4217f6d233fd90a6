/** One line of the results table: a figure, its target, and the measured value per database. */
export interface Figure {
  group: string;
  name: string;
  unit: 'ms' | 'req/s' | 'KB' | 's' | 'ops/s' | 'count' | '×';
  /** What it must be: 'max' = at most target, 'min' = at least target. */
  target?: { kind: 'max' | 'min'; value: number };
  value: number;
  detail?: Record<string, number | string>;
  /** The machine's 1-minute load average when the figure was taken: a busy machine reads slower than the product is. */
  load?: number;
}

export const meets = (figure: Pick<Figure, 'target' | 'value'>) =>
  !figure.target || Number.isNaN(figure.value)
    ? undefined
    : figure.target.kind === 'max'
      ? figure.value <= figure.target.value
      : figure.value >= figure.target.value;
