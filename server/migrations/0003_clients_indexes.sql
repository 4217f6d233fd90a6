-- Client lists at a million rows (docs/features.md "Clients"): every sortable column has a (sort key, id) index, so a
-- page, first or deep (keyset cursor), is a short index range scan. The sort keys fold NULLs and
-- case exactly as server/src/clients/listQuery.ts orders them; keep the two in step.
CREATE INDEX clients_first_name_sort_idx ON clients (lower(coalesce(first_name, '')), id);
CREATE INDEX clients_last_name_sort_idx ON clients (lower(coalesce(last_name, '')), id);
CREATE INDEX clients_email_sort_idx ON clients (lower(coalesce(email_address, '')), id);
CREATE INDEX clients_level_sort_idx ON clients (coalesce(vod_access_level, 0), id);
-- Also serves the Active list (status = 'Active' ordered by id).
CREATE INDEX clients_status_sort_idx ON clients (coalesce(client_status, 'Pending'), id);
-- Also serves the New list (first_login within the window).
CREATE INDEX clients_first_login_sort_idx ON clients (coalesce(first_login, '-infinity'::timestamptz), id);
-- The quick filter (part of a name or e-mail); trigrams serve terms of 3+ characters.
CREATE INDEX clients_quick_filter_trgm_idx ON clients USING gin (
  (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email_address, ''))) gin_trgm_ops
);
