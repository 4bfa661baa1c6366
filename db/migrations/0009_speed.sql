-- Issue #11 (speed): partial indexes for the dispatcher's recovery scans, so a pass costs milliseconds at
-- 1,000,000 rows instead of scanning every reminder and delivery (db/queries/dispatch.ts). The due query
-- (status 'scheduled' by due_at) and the claimed/sending lease scan already have theirs (0000_init:
-- reminders_due_idx, deliveries_lease_idx).
-- redispatchStale (reminders left 'dispatched', oldest due first) and /api/metrics' oldest due-but-unsent age: the
-- 'dispatched' rows by due_at. Only reminders in flight are in it, so the stale filter on dispatched_at is cheap.
CREATE INDEX "reminders_dispatched_due_idx" ON "reminders" USING btree ("due_at") WHERE status = 'dispatched';--> statement-breakpoint
-- recoverExpiredLeases: deliveries 'retrying' by next_attempt_at (the other arm, 'claimed' by lease_expires_at, and
-- the 'sending' scans use deliveries_lease_idx).
CREATE INDEX "deliveries_retrying_idx" ON "deliveries" USING btree ("next_attempt_at") WHERE status = 'retrying';--> statement-breakpoint
-- The due query orders by (due_at, id) to claim in due order: with reminders_due_idx on due_at alone, every
-- 200-row claim sorted ALL due rows (20,000 due at once: ≈ 35 ms of PostgreSQL CPU per batch, 100 batches).
-- On (due_at, id) the claim reads the first 200 in index order and stops.
DROP INDEX IF EXISTS "reminders_due_idx";--> statement-breakpoint
CREATE INDEX "reminders_due_idx" ON "reminders" USING btree ("due_at","id") WHERE status = 'scheduled';
