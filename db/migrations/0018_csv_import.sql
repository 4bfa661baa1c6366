-- Issue #13 (csv_import): participants imported from a CSV file are audited as one entry per import.
ALTER TYPE "public"."audit_action" ADD VALUE IF NOT EXISTS 'participants_import';
