-- Bumping invite_sequence alone is not an edit of the booking: its row version (invariant 11) stays, so a form
-- open on the booking is not made stale by a reschedule or a details change of its event (nor by the backfill below,
-- which is why the trigger is replaced first).
DROP TRIGGER "bookings_row_version" ON "bookings";--> statement-breakpoint
CREATE TRIGGER "bookings_row_version" BEFORE UPDATE ON "bookings" FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'invite_sequence') IS DISTINCT FROM (to_jsonb(NEW) - 'invite_sequence'))
  EXECUTE FUNCTION "punctual_bump_row_version"();--> statement-breakpoint
-- Calendar invitations carry a per-booking SEQUENCE (bookings.invite_sequence) instead of one derived from the
-- event's schedule version. Every booking starts at the highest value its invitations may already have carried
-- (a REQUEST carried schedule_version - 1, a CANCEL schedule_version), so the next invitation is newer in every
-- calendar that holds one.
UPDATE "bookings" b SET "invite_sequence" = greatest(0, e."schedule_version" - 1)
  + CASE WHEN b."status" = 'cancelled' OR e."status" = 'cancelled' THEN 1 ELSE 0 END
FROM "events" e WHERE e."id" = b."event_id";
