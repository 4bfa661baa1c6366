import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { FeedControls } from '@/components/calendar/FeedControls';
import { ZonedTime } from '@/components/ui/ZonedTime';
import { getDb } from '@/db/client';
import { feedOwner } from '@/db/queries/calendar/feeds';
import { can } from '@/domain/accounts/permissions';
import { isUuid } from '@/domain/ids';
import { feedViewOf } from '@/server/calendar/calendar-feed';
import { feedLinkSettings } from '@/server/calendar/feed-settings';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/calendar.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Contact' };

/**
 * A contact (person) page: name and address, and their personal calendar feed — the `webcal://` address to give them
 * (and the https one it is served at), whether it carries alarms matching their reminders, when it was last rotated
 * and by whom. Staff and admins rotate the address (the old one stops working) and switch alarms; viewers only see.
 * Links to the person's calendar replies.
 */
export default async function ContactPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const session = await requireStaff();
  const { tenant } = session;
  if (!isUuid(id)) notFound();
  const owner = await feedOwner(getDb(), tenant.id, id);
  if (!owner) notFound();
  const feed = await feedViewOf(getDb(), tenant.id, id, feedLinkSettings());
  const name = owner.contact.name || owner.contact.email;
  return (
    <>
      <div className="page-head">
        <h1>{name}</h1>
        <p className="muted">{owner.contact.email}</p>
      </div>
      <section className="card feed-card" aria-labelledby="feed-heading">
        <h2 id="feed-heading">Calendar feed</h2>
        <p className="muted small">
          A private address that lists {name}’s bookings (upcoming and of the last 30 days) in their own calendar app, with the same entries as the invitations they were sent. Hosts see everything they host.
        </p>
        {feed.webcal && feed.url ? (
          <dl className="feed-facts">
            <dt>Subscribe</dt>
            <dd>
              <a href={feed.webcal} className="feed-url" data-testid="feed-webcal">
                {feed.webcal}
              </a>
            </dd>
            <dt>Served at</dt>
            <dd>
              <code className="feed-url">{feed.url}</code>
            </dd>
            <dt>Alarms</dt>
            <dd data-testid="feed-alarms">{feed.alarms ? 'On — at the times their reminders are planned' : 'Off'}</dd>
            <dt>Last rotated</dt>
            <dd>
              {feed.rotatedAt ? (
                <>
                  <ZonedTime instant={feed.rotatedAt.toISOString()} zone={tenant.timeZone} /> by {feed.rotatedBy}
                </>
              ) : (
                'Never'
              )}
            </dd>
          </dl>
        ) : (
          <p className="notice">No feed address: the server has no session secret (BETTER_AUTH_SECRET) to sign it with.</p>
        )}
        {can(session.user.role, 'operate') ? (
          <FeedControls contactId={id} name={name} version={feed.version} alarms={feed.alarms} />
        ) : (
          <p className="muted small read-only-note">Your role ({session.user.role}) can look at the feed; staff and admins rotate it.</p>
        )}
      </section>
      <p>
        <Link href={`/replies?contact=${id}`}>Calendar replies from {name}</Link>
      </p>
    </>
  );
}
