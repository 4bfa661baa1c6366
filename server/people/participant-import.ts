/**
 * Importing participants for an event from a CSV file (issue #13): a preview that writes nothing, then a commit
 * that books everyone or no one.
 *
 * 1. Preview ({@link previewParticipantImport}): the file is read and every row checked (domain/people/participant-csv.ts:
 *    the add-participant form's rules, duplicates within the file, people already booked on the event), and the
 *    answer lists each row with a problem, the counts, and the file's digest (SHA-256 of its text). Nothing is
 *    stored, not even a contact.
 * 2. Commit ({@link commitParticipantImport}): the same text and the preview's digest. The text is read and checked
 *    AGAIN inside the writing transaction, under the event's lock (which every booking of the event takes): a
 *    changed file (digest differs) or any problem now (someone booked one of these people meanwhile) is a 409 that
 *    writes nothing and carries the fresh preview. Or, when staff chose "import the good rows, skip the others"
 *    (`skipProblems`), the rows with a problem NOW are skipped and listed in the answer and the audit entry, and the
 *    others booked (none left to book → 409). Otherwise `addBookingsBulk` books them all — contacts found or
 *    created (a known person's stored details are kept, domain/scheduling/contact-kept.ts), bookings, their reminders and
 *    the booking-confirmed facts — with ONE audit entry `participants_import` (count, file name), in one
 *    transaction. A double click is one import: the route passes an `Idempotency-Key` (server/platform/idempotency.ts).
 */
import type { Db, DbOrTx } from '@/db/client';
import { setActor } from '@/db/queries/platform/actor';
import { appendAudit } from '@/db/queries/dashboards/audit';
import { contactsByLowerEmail, eventOfTenant } from '@/db/queries/people/participant-import';
import { liveBookedEmails } from '@/db/queries/scheduling/bulk-planning';
import { lockEvent } from '@/db/queries/scheduling/scheduling';
import {
  csvDigest,
  previewParticipantCsv,
  readParticipantCsv,
  type CsvField,
  type ImportPreview,
  type RowProblem,
} from '@/domain/people/participant-csv';
import { AppError, assertId } from '@/server/platform/errors';
import { addBookingsBulk } from '@/server/scheduling/bookings';
import type { ActionContext } from '@/server/scheduling/staff-actions';
import { recheckActor } from '@/server/platform/versions';

/** Ready rows shown as a sample in the preview (so staff see the columns were understood). */
const SAMPLE_ROWS = 5;

/** One row of the answer: its number, the file line it starts on, its values and problems. */
export interface ImportAnswerRow {
  row: number;
  line: number;
  values: Record<CsvField, string>;
  problems: RowProblem[];
}

/** The preview as the route answers it (and a refused commit's `preview`). */
export interface ImportAnswer {
  /** SHA-256 of the text, hex: the commit must send it back. */
  digest: string;
  delimiter: ',' | ';' | '\t';
  columns: { field: CsvField; header: string }[];
  ignored: string[];
  /** Participants in the file (rows). */
  total: number;
  ready: number;
  withProblems: number;
  /** Ready rows whose address is already a contact (their stored details are kept). */
  known: number;
  /** Of those, how many the file gives other details for. */
  keptDiffering: number;
  /** Rows left out because the file marks their booking cancelled (an export's cancelled bookings), spreadsheet row numbers. */
  cancelledRows: number[];
  /** Every row with a problem, in file order. */
  problemRows: ImportAnswerRow[];
  /** The first few ready rows. */
  sample: ImportAnswerRow[];
}

/** The answer of a successful commit. */
export interface ImportResult {
  bookings: number;
  reminders: number;
  /** Participants already in the contacts, booked with their details kept as stored. */
  known: number;
  keptDiffering: number;
  /** Rows skipped for their problems (only with `skipProblems`), in file order. */
  skipped: { row: number; problems: RowProblem[] }[];
}

const row = (r: ImportPreview['rows'][number]): ImportAnswerRow => ({ row: r.row, line: r.line, values: r.values, problems: r.problems });

/** Reads and checks `text` against the tenant's state through `db` (no writes). @throws AppError validation (field `file`). */
async function check(db: DbOrTx, tenantId: string, eventId: string, text: string): Promise<{ answer: ImportAnswer; preview: ImportPreview }> {
  const read = readParticipantCsv(text);
  if (!read.ok) throw new AppError('validation', read.error, 'file');
  const emails = [...new Set(read.rows.map((r) => r.values.email.toLowerCase()).filter(Boolean))];
  const [booked, known] = await Promise.all([liveBookedEmails(db, tenantId, eventId, emails), contactsByLowerEmail(db, tenantId, emails)]);
  const preview = previewParticipantCsv(read.rows, { booked, known });
  const answer: ImportAnswer = {
    digest: csvDigest(text),
    delimiter: read.delimiter,
    columns: read.columns,
    ignored: read.ignored,
    total: preview.rows.length,
    ready: preview.ready,
    withProblems: preview.withProblems,
    known: preview.known,
    keptDiffering: preview.keptDiffering,
    cancelledRows: preview.cancelledRows,
    problemRows: preview.rows.filter((r) => r.problems.length > 0).map(row),
    sample: preview.rows.filter((r) => r.problems.length === 0).slice(0, SAMPLE_ROWS).map(row),
  };
  return { answer, preview };
}

/**
 * The preview of importing `text` (the CSV file's text) onto the event. Writes nothing.
 * @throws AppError not_found (event not in this tenant), invalid_state (event cancelled), validation (field
 *   `file`: the file as a whole cannot be imported — empty, no email column, more than 5,000 rows …).
 */
export async function previewParticipantImport(db: Db, ctx: ActionContext, eventId: string, text: string): Promise<ImportAnswer> {
  assertId(eventId, 'eventId', 'event');
  const event = await eventOfTenant(db, ctx.tenantId, eventId);
  if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
  if (event.status === 'cancelled') throw new AppError('invalid_state', 'this event is cancelled: nobody can be booked onto it', 'eventId');
  return (await check(db, ctx.tenantId, eventId, text)).answer;
}

/**
 * Books every participant of `text` onto the event, or no one (module doc). `db` may be an open transaction (an
 * idempotent request's).
 * @param input.digest the preview's digest of `text`; @param input.fileName the file's name, for the audit entry.
 * @throws AppError validation (`digest` missing or malformed; `file` unreadable), not_found, invalid_state
 *   (cancelled event), conflict (field `digest`: not the previewed text; field `file`: rows have problems now —
 *   `details.preview` is the fresh preview), forbidden (role re-checked under lock). Nothing is written then.
 */
export async function commitParticipantImport(
  db: DbOrTx,
  ctx: ActionContext,
  eventId: string,
  input: { text: string; digest: string | null; fileName: string | null; skipProblems?: boolean },
): Promise<ImportResult> {
  assertId(eventId, 'eventId', 'event');
  if (!input.digest || !/^[0-9a-f]{64}$/.test(input.digest)) throw new AppError('validation', "digest: required — the preview's digest of the file (64 hex digits)", 'digest');
  if (csvDigest(input.text) !== input.digest) {
    throw new AppError('conflict', 'This is not the file that was previewed (its content differs): nothing was imported. Preview it again.', 'digest');
  }
  const fileName = (input.fileName ?? '').trim().slice(0, 255) || null;
  return db.transaction(async (tx) => {
    await recheckActor(tx, ctx, 'operate');
    await setActor(tx, ctx.actor);
    // The event's lock first: every booking of this event takes it, so "already booked" cannot change under us.
    const event = await lockEvent(tx, ctx.tenantId, eventId);
    if (!event) throw new AppError('not_found', `event ${eventId} not found`, 'eventId');
    if (event.status === 'cancelled') throw new AppError('invalid_state', 'this event is cancelled: nobody can be booked onto it', 'eventId');
    const { answer, preview } = await check(tx, ctx.tenantId, eventId, input.text);
    const good = preview.rows.filter((r) => r.problems.length === 0);
    const skipped = input.skipProblems ? preview.rows.filter((r) => r.problems.length > 0).map((r) => ({ row: r.row, problems: r.problems })) : [];
    if (input.skipProblems && good.length === 0) {
      throw new AppError('conflict', 'Nothing was imported: every row has a problem. Check the preview below.', 'file', { preview: answer });
    }
    if (!input.skipProblems && preview.withProblems > 0) {
      throw new AppError(
        'conflict',
        `Nothing was imported: ${preview.withProblems === 1 ? '1 row has a problem' : `${preview.withProblems} rows have problems`} now (for example, someone was booked meanwhile). Check the preview below.`,
        'file',
        { preview: answer },
      );
    }
    const r = await addBookingsBulk(tx, ctx.tenantId, eventId, good.map((g) => g.person!), ctx.now);
    if (r.skipped.length > 0) {
      // Not expected after the checks under the lock; all or nothing all the same.
      throw new AppError('conflict', `Nothing was imported: ${r.skipped.map((s) => `row ${good[s.index]?.row ?? s.index + 1}: ${s.reason}`).join('; ')}`, 'file');
    }
    await appendAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: 'participants_import',
      at: ctx.now,
      details: {
        eventId,
        title: event.title,
        count: r.bookings,
        file: fileName,
        reminders: r.reminders,
        knownContactsKept: preview.known,
        digest: input.digest,
        ...(input.skipProblems ? { skippedRows: skipped.map((x) => x.row) } : {}),
      },
    });
    return { bookings: r.bookings, reminders: r.reminders, known: preview.known, keptDiffering: preview.keptDiffering, skipped };
  });
}
