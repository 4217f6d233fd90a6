-- Customer search (docs/search.md), words folded and summarised.
--
-- A query of several words ('sofia r', 'emma w', 'ma j') reads the clients of one word in rank
-- order and keeps those whose other words match too. Checking that was an index probe per
-- candidate (~5 µs): 'sofia r' probed 3,060 Sofias before 20 Sofia R…s.
-- Each row of search_words and search_prefixes now carries `sig`, a 64-bit summary of its
-- client's words: two bits for each word's first character and two for its first two. A candidate
-- whose sig lacks a query word's bits cannot match it, and that test is read from the rank index
-- itself (INCLUDE), so only the few candidates that pass are probed.
-- server/src/search/text.ts (prefixBits, wordBits) computes the same bits for query words.
-- vacuum after: search_words search_prefixes search_vocab

-- Two of 64 bits from a mixed multiplicative hash of the prefix's (first, second) code point:
--   h = (first * 131 + second) * 2654435761 mod 2^32;  g = ((h xor h >> 15) mod 2^31) * 2246822507 mod 2^32;
--   bits 1 << (g >> 26) and 1 << ((g >> 20) mod 64).
-- Two, so a prefix sharing one bit with a prefix every client has (the 'c' of 'com') still filters.
-- Written out as one expression (h four times) so the planner inlines it: with subqueries, or
-- split into functions, it is called per word instead, which makes indexing a million clients
-- several times slower.
CREATE FUNCTION search_prefix_bits(prefix text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT (1::bigint << ((
            (((((((ascii(prefix) * 131 + ascii(substr(prefix, 2, 1)))::bigint * 2654435761) & 4294967295)) # (((((ascii(prefix) * 131 + ascii(substr(prefix, 2, 1)))::bigint * 2654435761) & 4294967295)) >> 15)) & 2147483647) * 2246822507) & 4294967295
          ) >> 26)::int)
       | (1::bigint << (((
            (((((((ascii(prefix) * 131 + ascii(substr(prefix, 2, 1)))::bigint * 2654435761) & 4294967295)) # (((((ascii(prefix) * 131 + ascii(substr(prefix, 2, 1)))::bigint * 2654435761) & 4294967295)) >> 15)) & 2147483647) * 2246822507) & 4294967295
          ) >> 20) & 63)::int)
$$;

CREATE FUNCTION search_word_bits(word text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT search_prefix_bits(left(word, 1)) | CASE WHEN length(word) >= 2 THEN search_prefix_bits(left(word, 2)) ELSE 0 END
$$;

-- Accents do not count, as in Algolia: 'ramon' finds Ramón, 'zoe' Zoë, 'emile' Émile. Combining
-- marks go, and a few letters with no decomposition map one to one (text.ts fold does the same).
CREATE FUNCTION search_fold(lower_cased text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  -- ASCII (as many bytes as characters) has nothing to fold, and is most text: four times faster.
  SELECT CASE WHEN octet_length(lower_cased) = length(lower_cased) THEN lower_cased
              ELSE translate(normalize(regexp_replace(normalize(lower_cased, NFD), '[\u0300-\u036f]', '', 'g'), NFC), 'øłđı', 'oldi') END
$$;

CREATE OR REPLACE FUNCTION search_client_words(first_name text, last_name text, email_address text, mb_client_id text)
RETURNS TABLE (word text, field smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT t.word, min(t.field)::smallint
  FROM (
    SELECT m[1] AS word, 0 AS field
    FROM regexp_matches(search_fold(lower(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))), '[0-9]+|[^0-9[:space:]!-/:-@[-`{-~]+', 'g') AS m
    UNION ALL
    SELECT m[1], 1
    FROM regexp_matches(search_fold(lower(coalesce(email_address, '') || ' ' || coalesce(mb_client_id, ''))), '[0-9]+|[^0-9[:space:]!-/:-@[-`{-~]+', 'g') AS m
  ) t
  WHERE length(t.word) <= 64
  GROUP BY t.word
$$;

-- Rebuilt rather than updated in place: loading the rows into tables without indexes and then
-- building each index once is several times faster than rewriting ten million indexed rows.
DROP INDEX search_words_rank_idx;
DROP INDEX search_words_client_idx;
DROP INDEX search_prefixes_rank_idx;
-- search_vocab too: its words are now folded.
TRUNCATE search_words, search_prefixes, search_vocab;
ALTER TABLE search_words ADD COLUMN sig bigint NOT NULL;
ALTER TABLE search_prefixes ADD COLUMN sig bigint NOT NULL;

CREATE OR REPLACE FUNCTION search_index_clients(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH w AS (
    INSERT INTO search_words (word, field, sort_key, client_id, sig)
    SELECT x.word, x.field, search_sort_key(c.first_name, c.last_name) COLLATE "C", c.id, s.sig
    FROM unnest(ids) AS i (id)
    JOIN clients c ON c.id = i.id
    -- One pass over the client's words gives both the words and their sig (no sort by client).
    CROSS JOIN LATERAL (
      SELECT array_agg(cw.word) AS words, array_agg(cw.field) AS fields, bit_or(search_word_bits(cw.word)) AS sig
      FROM search_client_words(c.first_name, c.last_name, c.email_address, c.mb_client_id) cw
    ) s
    CROSS JOIN LATERAL unnest(s.words, s.fields) AS x (word, field)
    RETURNING word, field, sort_key, client_id, sig
  ), p AS (
    INSERT INTO search_prefixes (prefix, field, sort_key, client_id, sig)
    SELECT p.prefix, min(w.field), w.sort_key, w.client_id, w.sig
    FROM w CROSS JOIN LATERAL (VALUES (left(w.word, 1)), (left(w.word, 2))) AS p (prefix)
    GROUP BY p.prefix, w.sort_key, w.client_id, w.sig
    RETURNING 1
  )
  INSERT INTO search_vocab (word)
  SELECT DISTINCT word FROM w ORDER BY word
  ON CONFLICT (word) DO NOTHING;
$$;

SELECT search_index_clients(ARRAY(SELECT id FROM clients));

CREATE INDEX search_words_rank_idx ON search_words (word, field, sort_key, client_id) INCLUDE (sig);
CREATE INDEX search_words_client_idx ON search_words (client_id, word);
CREATE INDEX search_prefixes_rank_idx ON search_prefixes (prefix, field, sort_key, client_id) INCLUDE (sig);

-- The driving word of a several-word query is its rarest (server/src/search/wordStats.ts), judged
-- from ANALYZE's most common values: keep 1,000 of them, enough for every common name and domain.
ALTER TABLE search_words ALTER COLUMN word SET STATISTICS 1000;
ALTER TABLE search_prefixes ALTER COLUMN prefix SET STATISTICS 1000;
