-- The client's timeline (issue 24 point 2) reads each source newest first for one client, a page at a time.
-- Visits, views, purchases, pushes and audit entries already have (client_id, time DESC) indexes;
-- RevenueCat events had none by client.
CREATE INDEX revenuecat_events_client_idx ON revenuecat_events (client_id, event_at DESC, id DESC) WHERE client_id IS NOT NULL;
