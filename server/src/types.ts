import type { Config } from './config';
import type { Database, Db } from './db/client';
import type { SessionStore } from './auth/sessions';
import type { StaffUser } from './auth/staff';
import type { JobQueue } from './jobs/queue';
import type { MindbodyApi } from './integrations/mindbody';
import type { IntegrationKeys } from './integrations/keys';
import type { Automation } from './automation';
import type { PushService } from './push/service';
import type { SearchIndexer } from './integrations/algolia';

export interface Clock {
  now(): Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    sessions: SessionStore;
    clock: Clock;
    /** Durable background jobs (server/src/jobs/queue.ts); polling starts in server.ts only. */
    jobs: JobQueue;
    /** Mindbody Public API v6: the live client with MINDBODY_* credentials, the sandbox site otherwise. */
    mindbody: MindbodyApi;
    /** Push notifications to one client through FCM (live or sandbox), each one recorded. */
    push: PushService;
    /** Keys the inbound integrations must present (RevenueCat webhook, mobile app). */
    integrationKeys: IntegrationKeys;
    /** Automated messages (issue 12): the sending engine and the push sender it uses. */
    automation: Automation;
    /** Hosted Algolia's writer with ALGOLIA_*, a no-op sandbox otherwise (our endpoint reads the database). */
    searchIndexer: SearchIndexer;
    routeTable: { method: string; url: string; public: boolean }[];
    /** Prefix every server path lives under (SERVER_PREFIX), '' by default. */
    pathPrefix: string;
  }
  interface FastifyRequest {
    staff: StaffUser | null;
    /** The stored id of the caller's session (set with `staff`). */
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /** Routes under /api that answer without a staff session (they check their own key, if any). */
    public?: boolean;
  }
}
