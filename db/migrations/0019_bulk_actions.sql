-- Issue #13, "CSV exports and bulk actions on an event's participants": an export is audited (action `export`,
-- details: what was exported and the filters it carried). Bulk cancel/nudge reuse the single actions and their
-- audit actions (`booking_cancel`, `nudge`): no other DDL.
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'export';
