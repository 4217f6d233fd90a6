import type { PlaceholderValues } from '@contract/placeholders';

/**
 * The previews fill placeholders with this fixed sample client rather than a fetched demo client:
 * a preview must look the same on every visit and must not cost a client lookup per page view.
 */
export const SAMPLE_CLIENT = {
  first_name: 'Jordan',
  last_name: 'Rivera',
  class_name: 'Morning Flow',
  days_absent: 12,
  class_count: 50,
} satisfies Required<PlaceholderValues>;
