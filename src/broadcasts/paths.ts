/** The Broadcasts history page (docs/automation.md#broadcasts). */
export const BROADCASTS_PATH = '/broadcasts';
