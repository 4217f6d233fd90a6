-- Versions of a broadcast's text (docs/automation.md#versions-a-test-then-the-winner): 2 or 3 versions,
-- each sent to an equal share of a test part of the clients sent to (the holdout is drawn first); the
-- rest wait ('waiting') until the winner is picked, then get the winner by itself.
ALTER TABLE broadcasts
  -- [{ title, body }], the first being the broadcast's own title and body; null with one text
  ADD COLUMN variants jsonb,
  ADD COLUMN test_percent integer CHECK (test_percent BETWEEN 5 AND 50),
  ADD COLUMN pick_winner_after_hours integer CHECK (pick_winner_after_hours BETWEEN 1 AND 168),
  ADD COLUMN winner_metric text CHECK (winner_metric IN ('conversion', 'open')),
  -- once picked: which version went to the rest, why, and each version's figures at that moment
  ADD COLUMN winner_variant smallint,
  ADD COLUMN winner_reason text CHECK (winner_reason IN ('better', 'no_clear_winner', 'no_data')),
  ADD COLUMN winner_figures jsonb,
  ADD COLUMN winner_picked_at timestamptz,
  ADD CONSTRAINT broadcasts_variants_complete CHECK (variants IS NULL OR (test_percent IS NOT NULL AND pick_winner_after_hours IS NOT NULL AND winner_metric IS NOT NULL));

-- The version a recipient gets (0 = the first): the test part's from the start, the rest's once the
-- winner is picked (its message_outcomes row keeps variant null: the rest is measured apart).
ALTER TABLE broadcast_recipients ADD COLUMN variant smallint;
