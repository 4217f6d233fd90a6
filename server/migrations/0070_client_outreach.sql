-- Reaching a client outside the app (docs/features.md#at-risk): a phone number from Mindbody, and what
-- staff did about a client at risk — called, texted, left a message — or snoozed them off the at-risk
-- list for some days. Both kinds of entry are on the client's timeline.

-- Mindbody's MobilePhone, else HomePhone, else WorkPhone, as Mindbody wrote it.
ALTER TABLE clients ADD COLUMN phone text;

CREATE TABLE client_contacts (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('called', 'texted', 'left_message', 'snoozed')),
  note text,
  -- kind 'snoozed': the client is off the at-risk list until then
  snoozed_until timestamptz,
  staff_email text NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK ((kind = 'snoozed') = (snoozed_until IS NOT NULL))
);
CREATE INDEX client_contacts_client_idx ON client_contacts (client_id, created_at DESC, id DESC);
-- The at-risk list and the `snoozed` filter ask "snoozed past now?" per client.
CREATE INDEX client_contacts_snoozed_idx ON client_contacts (client_id, snoozed_until) WHERE kind = 'snoozed';

-- The client page's total spent sums a client's RevenueCat events (and the timeline reads them per client).
CREATE INDEX IF NOT EXISTS revenuecat_events_client_idx ON revenuecat_events (client_id, event_at DESC);
