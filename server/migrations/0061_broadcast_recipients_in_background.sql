-- A broadcast to a large filter answers at once: its recipients are fixed by its job, in chunks by
-- client id (docs/automation.md#broadcasts). fixing_after is the last client id fixed so far (0: none
-- yet); NULL once every recipient is fixed, when `recipients` becomes exact (an estimate before).
ALTER TABLE broadcasts ADD COLUMN fixing_after bigint;
