-- The Revenue area's daily totals summed per month too (docs/revenue.md#speed), moved by the same
-- differences as revenue_days (server/src/revenue/keep.ts): the level before a chart's first period
-- (the summary's: all of history) and whole months are read from a few hundred rows instead of
-- every day since the studio began. Derived: a restore leaves it out and the backfill rebuilds it.
CREATE TABLE revenue_months (
  month date NOT NULL,
  kind text NOT NULL,
  reason text NOT NULL DEFAULT '',
  n bigint NOT NULL,
  amount numeric NOT NULL,
  PRIMARY KEY (month, kind, reason)
);
COMMENT ON TABLE revenue_months IS 'derived: revenue_days summed per month, kind and reason (migration 0110)';

INSERT INTO revenue_months (month, kind, reason, n, amount)
SELECT date_trunc('month', day::timestamp)::date, kind, reason, sum(n), sum(amount) FROM revenue_days GROUP BY 1, 2, 3;
