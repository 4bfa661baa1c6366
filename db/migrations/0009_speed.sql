-- Issue #11 (speed): partial indexes for the dispatcher's recovery scans, so a pass costs milliseconds at
-- 1,000,000 rows instead of scanning every reminder and delivery (db/queries/dispatch.ts). The due query
-- (status 'scheduled' by due_at) and the claimed/sending lease scan already have theirs (0000_init:
-- reminders_due_idx, deliveries_lease_idx).
-- redispatchStale (reminders left 'dispatched', oldest due first) and /api/metrics' oldest due-but-unsent age: the
-- 'dispatched' rows by due_at. Only reminders in flight are in it, so the stale filter on dispatched_at is cheap.
CREATE INDEX "reminders_dispatched_due_idx" ON "reminders" USING btree ("due_at") WHERE status = 'dispatched';--> statement-breakpoint
-- recoverExpiredLeases: deliveries 'retrying' by next_attempt_at (the other arm, 'claimed' by lease_expires_at, and
-- the 'sending' scans use deliveries_lease_idx).
CREATE INDEX "deliveries_retrying_idx" ON "deliveries" USING btree ("next_attempt_at") WHERE status = 'retrying';
