-- Issue 24 point 3: staff notes about a client (the author may edit or delete their own) and the client's tags.
CREATE TABLE client_notes (
  id bigserial PRIMARY KEY,
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  body text NOT NULL,
  -- who wrote it: only they may change it; the e-mail stays when the account is removed
  author_staff_id integer REFERENCES staff_users (id) ON DELETE SET NULL,
  author_email text NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX client_notes_client_idx ON client_notes (client_id, created_at DESC, id DESC);

-- Tags as contract/notes.ts normalizes them (trimmed, lower case). The tag filter of the client lists looks
-- clients up by tag; the suggestions count clients per tag.
CREATE TABLE client_tags (
  client_id bigint NOT NULL REFERENCES clients (id) ON DELETE CASCADE,
  tag text NOT NULL,
  PRIMARY KEY (client_id, tag)
);
CREATE INDEX client_tags_tag_idx ON client_tags (tag, client_id);
