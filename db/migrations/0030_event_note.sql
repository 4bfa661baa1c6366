-- An event's note for participants, per language (domain/scheduling/event-note.ts): jsonb `{ "nl": "…", "": "…" }`,
-- null = none. Generated with drizzle-kit. Additive: old processes never read it, old rows keep null (no note).
ALTER TABLE "events" ADD COLUMN IF NOT EXISTS "event_note" jsonb;
