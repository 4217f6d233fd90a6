import type { Config } from './config';
import type { Database } from './db/client';
import type { SessionStore } from './auth/sessions';
import type { StaffUser } from './staff/queries';
import type { JobQueue } from './jobs/queue';
import type { MindbodyApi } from './integrations/mindbody';
import type { IntegrationKeys } from './integrations/keys';
import type { Automation } from './automation';
import type { PushService } from './push/service';
import type { SearchIndexer } from './integrations/algolia';
import type { IdTokenVerifier } from './integrations/firebase/idToken';
import type { RevenueCatRest } from './integrations/revenuecat/rest';
import type { VimeoCatalogue } from './integrations/vimeo';

export interface Clock {
  now(): Date;
}

import type { FastifySchema } from 'fastify';
import type { Permission } from '@contract/permissions';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
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
    /** Checks the Firebase ID token of the app's reports when FIREBASE_PROJECT_ID is set; null with the shared app key only. */
    idTokens: IdTokenVerifier | null;
    /** Automated messages (docs/automation.md): the sending engine and the push sender it uses. */
    automation: Automation;
    /** Hosted Algolia's writer with ALGOLIA_*, a no-op sandbox otherwise (our endpoint reads the database). */
    searchIndexer: SearchIndexer;
    /** RevenueCat's REST API with REVENUECAT_SECRET_API_KEY, a sandbox that records the calls otherwise. */
    revenuecat: RevenueCatRest;
    /** The Vimeo catalogue the video sync reads: Vimeo's API with VIMEO_*, the sandbox catalogue otherwise. */
    vimeo: VimeoCatalogue;
    /**
     * Every registered route, for the tests that walk them all (guard, fuzzing); `schema` is the
     * route's own (zod) schemas, for the tests that derive their requests from them.
     */
    routeTable: {
      method: string;
      url: string;
      readonly public: boolean;
      readonly permission: Permission | undefined;
      readonly reauth: boolean;
      schema?: FastifySchema;
      scrubsText: boolean;
    }[];
    /** Prefix every server path lives under (SERVER_PREFIX), '' by default. */
    pathPrefix: string;
  }
  interface FastifyRequest {
    staff: StaffUser | null;
    /** The stored id of the caller's session (set with `staff`). */
    sessionId: string | null;
  }
  interface FastifyContextConfig {
    /**
     * Answers without a staff session (it checks its own key, if any). Every other route needs
     * one: the guard denies by default (server/src/auth/guard.ts).
     */
    public?: boolean;
    /**
     * What the caller's role must allow (contract/permissions.ts). Every route that is not public
     * declares one; a route with neither stops the server at start and is refused to everyone.
     */
    permission?: Permission;
    /**
     * A sensitive action: beside the permission, the session's staff member must have proved who
     * they are within REAUTH_MINUTES, or the guard answers 403 { reauth_required: true }
     * (server/src/auth/reauth.ts). One line to opt a route in: `config: { permission, reauth: true }`.
     */
    reauth?: boolean;
    /** Open to an account that must still set up two-step (the owner's rule): the set-up calls themselves. */
    twoStepSetup?: boolean;
    /** A public route that still wants `request.staff` when the caller has a session. */
    readsSession?: boolean;
    /** A GET that changes data (the spec's syncs): refused to navigations and other sites. */
    changesState?: boolean;
    /** Answers whatever the Host header says, also with PUBLIC_URL set (load balancers' health checks). */
    anyHost?: boolean;
  }
}
