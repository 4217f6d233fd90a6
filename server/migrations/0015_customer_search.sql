-- Customer search (docs/search.md): our Algolia-compatible endpoint answers from these tables.
--
-- A trigram index cannot serve 1-2 letter queries and cannot give the first 20 hits "by name"
-- without sorting every match, so search keeps its own token tables, ordered the way hits rank:
--   search_words    one row per (client, word): the client's words (names; e-mail and MindBody id)
--                   with `field` 0 = a name word, 1 = an e-mail / MindBody id word, and the client's
--                   name as `sort_key`. (word, field, sort_key) order = exact-match hits in rank order.
--   search_prefixes the 1- and 2-character prefixes of those words, once per client, so a 1-2
--                   letter query is one ordered index range read with LIMIT.
--   search_vocab    every word once: prefix expansion (3+ letters) and typo candidates read it.
-- Statement-level triggers on clients keep them current in the same transaction as the change,
-- set-based (the seeder's one INSERT of a million clients is one trigger run).
-- Words: runs of digits, or runs of anything that is neither a digit, white space nor ASCII
-- punctuation; lower-cased. server/src/search/tokens.ts splits queries the same way.

CREATE TABLE search_words (
  word text COLLATE "C" NOT NULL,
  field smallint NOT NULL,
  sort_key text COLLATE "C" NOT NULL,
  client_id bigint NOT NULL
);
CREATE INDEX search_words_rank_idx ON search_words (word, field, sort_key, client_id);
CREATE INDEX search_words_client_idx ON search_words (client_id, word);

CREATE TABLE search_prefixes (
  prefix text COLLATE "C" NOT NULL,
  field smallint NOT NULL,
  sort_key text COLLATE "C" NOT NULL,
  client_id bigint NOT NULL
);
-- No (client_id) index: a client's rows are found from its words (search_unindex_clients), which
-- saves building one more index over ten million rows when seeding a million clients.
CREATE INDEX search_prefixes_rank_idx ON search_prefixes (prefix, field, sort_key, client_id);

CREATE TABLE search_vocab (
  word text COLLATE "C" PRIMARY KEY
);

-- The words of one client, each with its best field (0 beats 1). Inlined by the planner.
CREATE FUNCTION search_client_words(first_name text, last_name text, email_address text, mb_client_id text)
RETURNS TABLE (word text, field smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT t.word, min(t.field)::smallint
  FROM (
    SELECT m[1] AS word, 0 AS field
    FROM regexp_matches(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')), '[0-9]+|[^0-9[:space:]!-/:-@[-`{-~]+', 'g') AS m
    UNION ALL
    SELECT m[1], 1
    FROM regexp_matches(lower(coalesce(email_address, '') || ' ' || coalesce(mb_client_id, '')), '[0-9]+|[^0-9[:space:]!-/:-@[-`{-~]+', 'g') AS m
  ) t
  WHERE length(t.word) <= 64
  GROUP BY t.word
$$;

CREATE FUNCTION search_sort_key(first_name text, last_name text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(btrim(coalesce(first_name, '')) || ' ' || btrim(coalesce(last_name, '')))
$$;

-- (Re)indexes these clients from their current rows; callers delete their old rows first.
CREATE FUNCTION search_index_clients(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH w AS (
    INSERT INTO search_words (word, field, sort_key, client_id)
    SELECT w.word, w.field, search_sort_key(c.first_name, c.last_name) COLLATE "C", c.id
    FROM unnest(ids) AS i (id)
    JOIN clients c ON c.id = i.id
    CROSS JOIN LATERAL search_client_words(c.first_name, c.last_name, c.email_address, c.mb_client_id) w
    RETURNING word, field, sort_key, client_id
  ), p AS (
    INSERT INTO search_prefixes (prefix, field, sort_key, client_id)
    SELECT p.prefix, min(w.field), w.sort_key, w.client_id
    FROM w CROSS JOIN LATERAL (VALUES (left(w.word, 1)), (left(w.word, 2))) AS p (prefix)
    GROUP BY p.prefix, w.sort_key, w.client_id
    RETURNING 1
  )
  INSERT INTO search_vocab (word)
  SELECT DISTINCT word FROM w ORDER BY word
  ON CONFLICT (word) DO NOTHING;
$$;

CREATE FUNCTION search_unindex_clients(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH w AS (DELETE FROM search_words WHERE client_id IN (SELECT unnest(ids)) RETURNING word, sort_key, client_id)
  DELETE FROM search_prefixes p
  USING (SELECT DISTINCT left(w.word, k.n) AS prefix, w.sort_key, w.client_id FROM w CROSS JOIN (VALUES (1), (2)) AS k (n)) o
  WHERE p.prefix = o.prefix AND p.sort_key = o.sort_key AND p.client_id = o.client_id;
$$;

CREATE FUNCTION search_clients_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM search_index_clients(ARRAY(SELECT id FROM new_rows));
  ELSIF TG_OP = 'UPDATE' THEN
    -- Only rows whose searchable columns changed: access levels, logins… leave the index alone.
    ids := ARRAY(
      SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
      WHERE (n.id, n.first_name, n.last_name, n.email_address, n.mb_client_id)
            IS DISTINCT FROM (o.id, o.first_name, o.last_name, o.email_address, o.mb_client_id)
    );
    IF cardinality(ids) > 0 THEN
      PERFORM search_unindex_clients(ids);
      PERFORM search_index_clients(ids);
    END IF;
  ELSE
    PERFORM search_unindex_clients(ARRAY(SELECT id FROM old_rows));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER clients_search_insert AFTER INSERT ON clients
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_clients_sync();
CREATE TRIGGER clients_search_update AFTER UPDATE ON clients
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_clients_sync();
CREATE TRIGGER clients_search_delete AFTER DELETE ON clients
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_clients_sync();
CREATE FUNCTION search_clients_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- DELETE, not TRUNCATE: a TRUNCATE listing these tables too (a restore) has them open already.
  DELETE FROM search_words;
  DELETE FROM search_prefixes;
  RETURN NULL;
END $$;
CREATE TRIGGER clients_search_truncate AFTER TRUNCATE ON clients
  FOR EACH STATEMENT EXECUTE FUNCTION search_clients_truncate();

-- Clients that exist already (a database migrated from before this file).
SELECT search_index_clients(ARRAY(SELECT id FROM clients));

-- A query typed as the start of an e-mail address ('olivia.smith1') is one range read of this.
CREATE INDEX clients_email_prefix_idx ON clients (lower(email_address) text_pattern_ops);

-- Videos are few (thousands): the Videos index reads the table itself, through this index.
CREATE INDEX videos_search_trgm_idx ON videos USING gin ((lower(title || ' ' || coalesce(instructor, ''))) gin_trgm_ops);

-- Backups skip these: restoring clients rebuilds them through the triggers (server/src/db/dump.ts).
COMMENT ON TABLE search_words IS 'derived: the words of each client, kept by the clients triggers (migration 0015)';
COMMENT ON TABLE search_prefixes IS 'derived: 1-2 character word prefixes of each client, kept by the clients triggers';
COMMENT ON TABLE search_vocab IS 'derived: every search word once, kept by the clients triggers';
