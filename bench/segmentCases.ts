/**
 * The segment cases of the benchmark (docs/features.md#segments): a segment's first
 * page and its count (the preview) for the activity, app and opt-out filters, within the list budget
 * (p95 ≤ 50 ms; counts above 10,000 are the planner's estimate), and the at-risk list's first and deepest page.
 */
import type { LatencyCase, StaffApi } from './clients-latency';

const BUDGET = 50;
const AT_RISK = { last_activity_days: 74, no_class_days: 14, no_stream_days: 14 };

const SEGMENTS: Array<[string, Record<string, unknown>]> = [
  ['a class within 30 days', { last_class_days: 30 }],
  ['no class within 14 days', { no_class_days: 14 }],
  ['a stream within 30 days + status Active', { last_stream_days: 30, status: ['Active'] }],
  ['has the app', { app_installed: true }],
  ['opted out', { opted_out: true }],
  ['at risk (60 days before the last 14)', AT_RISK],
];

const query = (filter: Record<string, unknown>) =>
  Object.entries(filter)
    .map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`)
    .join('&');

export function segmentCases(api: StaffApi): LatencyCase[] {
  const cases: LatencyCase[] = [];
  for (const [name, filter] of SEGMENTS) {
    cases.push({ name: `segment first page: ${name}`, targetP95: BUDGET, run: () => api.get(`/api/client/v1/clients/1?page=1&perPage=25&${query(filter)}`) });
    cases.push({ name: `segment count + sample (preview): ${name}`, targetP95: BUDGET, run: () => api.post('/api/admin/v1/segments/preview', { filter }) });
  }
  // A built-in segment: its first page and count within the list budget; its deepest
  // page (the 10,000th client, where it stops) is reported.
  cases.push({
    name: 'at-risk list, first page and count (most valuable first)',
    targetP95: BUDGET,
    run: () => api.get('/api/admin/v1/at-risk?page=1&perPage=25'),
  });
  cases.push({ name: 'at-risk list, deepest page (page 400 of 25)', run: () => api.get('/api/admin/v1/at-risk?page=400&perPage=25') });
  return cases;
}
