import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { TextEditor } from '@/components/messages/TextEditor';
import { languageLabel } from '@/components/messages/text-labels';
import { templateTitles } from '@/components/rules/template-labels';
import { formatInZone } from '@/components/ui/format';
import { can } from '@/domain/accounts/permissions';
import { isTemplateId } from '@/emails';
import { catalogLocales, type CatalogLocale } from '@/emails/messages';
import { readMessageText, textHistory } from '@/server/messages/message-texts';
import { builtInDraft } from '@/server/messages/text-overview';
import { previewChoices } from '@/server/messages/text-preview';
import { appClock } from '@/server/platform/clock';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/templates.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit message text' };

/**
 * The words of one message kind in one language: the editor for admins (`configure`), read-only for everyone else
 * (the write routes refuse them too). 404 for an unknown kind or a language Punctual ships no text for.
 */
export default async function TextEditorPage({ params }: { params: Promise<{ kind: string; locale: string }> }) {
  const { kind, locale } = await params;
  if (!isTemplateId(kind) || !(catalogLocales as string[]).includes(locale)) notFound();
  const { tenant, user } = await requireStaff();
  const db = getDb();
  const clock = appClock();
  await clock.ready;
  const [view, history, bookings] = await Promise.all([readMessageText(db, tenant.id, { kind, locale }), textHistory(db, tenant.id, { kind, locale }), previewChoices(db, tenant.id, kind, clock.now())]);
  const choices = bookings.map((b) => ({ bookingId: b.bookingId, label: `${b.contactName || 'No name'} — ${b.eventTitle}, ${formatInZone(b.startsAt.toISOString(), b.timeZone)}` }));
  return (
    <>
      <p className="breadcrumb">
        <Link href="/templates">← Templates</Link>
      </p>
      <div className="page-head">
        <h1>
          {templateTitles[kind]} · {languageLabel(locale)}
        </h1>
        <p className="muted">Subject, body and SMS text of this message in this language, for {tenant.name}.</p>
      </div>
      <TextEditor view={view} history={history} builtIn={builtInDraft(kind, locale as CatalogLocale)} choices={choices} canEdit={can(user.role, 'configure')} zone={tenant.timeZone} />
    </>
  );
}
