/** Saved segments' limits, without zod: the sidebar (in the console's first load) lists segments. */
export const SEGMENT_NAME_MAX = 80;
/** Segments a studio keeps: the sidebar lists every one. */
export const MAX_SEGMENTS = 100;
