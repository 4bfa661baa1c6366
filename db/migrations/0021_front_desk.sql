-- Issue #13 (front desk, /today): every booking of an event, cancelled ones included, by event. The today view
-- counts participants per event (live and cancelled) for every event of the day and lists an event's first 50
-- participants on each 30 s refresh; the only index leading with event_id was partial (live bookings only,
-- bookings_event_contact_live_uq), so counting the cancelled ones read the whole table.
CREATE INDEX IF NOT EXISTS "bookings_event_status_idx" ON "bookings" USING btree ("event_id","status");
