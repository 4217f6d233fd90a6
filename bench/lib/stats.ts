export interface Distribution {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
}

export function distribution(values: number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    samples: sorted.length,
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    p99: round(at(0.99)),
    mean: round(sorted.reduce((sum, v) => sum + v, 0) / Math.max(1, sorted.length)),
  };
}

/** Times `run` `samples` times one after another (after a short warm-up) and returns milliseconds. */
export async function timeIt(samples: number, run: (i: number) => Promise<unknown>, warmup = Math.min(20, samples)): Promise<Distribution> {
  for (let i = 0; i < warmup; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await run(i);
    times.push(performance.now() - start);
  }
  return distribution(times);
}
