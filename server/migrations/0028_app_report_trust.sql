-- docs/security-app.md: the mobile app's reports come through a key every copy of the app carries, so a
-- report proves nothing about who sent it unless a Firebase ID token came with it.
--
-- used_for_push: whether pushes may go to this record's tokens. A report with only the shared key
-- may take a free device slot but not one a device reported to in the last 30 days; it is still
-- stored (staff read it) with used_for_push = false. Existing records were all used, so default true.
-- identity_verified: the report came with a Firebase ID token for the client's e-mail.
-- received_from: the request's own address (ip is what the device claims), for the per-address
-- bound on reports held for clients not imported yet.
ALTER TABLE debug_records
  ADD COLUMN used_for_push boolean NOT NULL DEFAULT true,
  ADD COLUMN identity_verified boolean NOT NULL DEFAULT false,
  ADD COLUMN received_from text;

-- Devices are ordered by when the server received a report, not by the sent_at the app claims.
DROP INDEX IF EXISTS debug_records_client_idx;
CREATE INDEX debug_records_client_idx ON debug_records (client_id, created_at DESC, id DESC);
-- The holding area (reports for clients not imported yet) is trimmed oldest first, as a whole and per address.
CREATE INDEX debug_records_holding_idx ON debug_records (id) WHERE client_id IS NULL;
CREATE INDEX debug_records_holding_address_idx ON debug_records (received_from, id) WHERE client_id IS NULL;
CREATE INDEX debug_records_holding_age_idx ON debug_records (created_at) WHERE client_id IS NULL;
