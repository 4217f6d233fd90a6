/** The console's addresses of segments (docs/features.md#segments). */
export const SEGMENT_NEW_PATH = '/segments/new';
export const AT_RISK_PATH = '/segments/at-risk';
export const BROADCASTS_PATH = '/broadcasts';
export const segmentPath = (id: number) => `/segments/${id}`;
/** 'Save as segment' from a list: the new-segment page with that filter filled in. */
export const newSegmentWith = (filter: object) => `${SEGMENT_NEW_PATH}?source=${encodeURIComponent(JSON.stringify({ filter }))}`;
