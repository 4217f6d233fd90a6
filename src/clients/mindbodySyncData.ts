import type { MindbodySyncStatus } from '@contract/mindbody';
import type { DataModule } from '../providers/dataModule';
import type { HttpClient } from '../providers/http';

// A type alias (not an interface) so it fits DataModule's string-keyed method map.
export type MindbodySyncMethods = {
  /** GET /api/admin/v1/mindbody/sync: when the Mindbody client import last ran, and how it ended. */
  getMindbodySyncStatus: () => Promise<MindbodySyncStatus>;
};

export const mindbodySyncData = (http: HttpClient) =>
  ({
    methods: {
      getMindbodySyncStatus: async () => (await http('/api/admin/v1/mindbody/sync')).json as MindbodySyncStatus,
    },
  }) satisfies DataModule<MindbodySyncMethods>;
