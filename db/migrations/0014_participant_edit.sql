-- Issue #12: staff edit a participant (name, address, mobile number, zone, language) — audited as its own action.
-- Hand-written (no table changes: contacts already carry a row version and its trigger, migration 0007).
ALTER TYPE "public"."audit_action" ADD VALUE 'participant_update';
