import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { eventOfTenant } from '@/db/queries/people/participant-import';
import { isUuid } from '@/db/queries/scheduling/event-views';
import { AnnouncementsPanel } from '@/components/announcements/AnnouncementsPanel';
import { can } from '@/domain/accounts/permissions';
import { catalogLocales } from '@/emails/messages';
import { listAnnouncements } from '@/server/messages/announcements';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/preferences.css';
import '@/app/styles/announcements.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Message participants' };

/** Each language Punctual has text for, by its own name ("Nederlands (nl)"). */
function languageOptions(): { tag: string; name: string }[] {
  return catalogLocales.map((tag) => {
    let name: string = tag;
    try {
      name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag) ?? tag;
    } catch {
      name = tag;
    }
    return { tag, name: `${name} (${tag})` };
  });
}

/**
 * "Message participants" of one event: write to its people (who, the words, a preview for a real recipient, now or
 * at a time in the organisation's zone) and the event's announcements with what became of their messages. Viewers see
 * the list only.
 */
export default async function AnnouncementsPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { user, tenant } = await requireStaff();
  if (!isUuid(id)) notFound();
  const e = await eventOfTenant(getDb(), tenant.id, id);
  if (!e) notFound();
  const initial = await listAnnouncements(getDb(), { tenantId: tenant.id }, id);
  const languages = languageOptions();
  const base = tenant.locale.split('-')[0];
  return (
    <>
      <p className="breadcrumb">
        <Link href={`/events/${id}`}>← {e.title}</Link>
      </p>
      <div className="page-head">
        <h1>Message participants</h1>
        <p className="muted">
          Write to the people booked on “{e.title}”. It goes out like every message: to the channels each person takes announcements on, never to a suppressed
          address, after their quiet hours, with an unsubscribe link.
        </p>
      </div>
      <AnnouncementsPanel
        eventId={id}
        initial={initial}
        canOperate={can(user.role, 'operate')}
        zone={tenant.timeZone}
        languages={languages}
        defaultLanguage={languages.some((l) => l.tag === base) ? base : 'en'}
      />
    </>
  );
}
