import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { PublicPreferencesForm } from '@/components/preferences/PublicPreferencesForm';
import { participantStaleMessage, readPreferencesByToken } from '@/server/notifications/contact-preferences';
import { preferencesSecret } from '@/server/sending/preference-link';
import '@/app/styles/preferences.css';

export const dynamic = 'force-dynamic';
// The token in the address is the credential: never send it on as a Referer, and keep the page out of indexes.
export const metadata: Metadata = { title: 'Your message preferences', referrer: 'no-referrer', robots: { index: false, follow: false } };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * A person's own preference page, reached through the signed link in every message (server/sending/preference-link.ts):
 * no sign-in, outside the staff shell. The token is verified with the server's preference key; anything that is
 * not a valid link is a plain 404. The form saves to POST /api/preferences/<token> (by script, or as a plain form
 * without one: then the answer comes back here as `saved=1`, `stale=1` or `error=…`).
 */
export default async function PreferencesPage({ params, searchParams }: { params: Promise<{ token: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await params;
  const sp = await searchParams;
  let secret: string;
  try {
    secret = preferencesSecret();
  } catch {
    notFound();
  }
  const view = await readPreferencesByToken(getDb(), token, secret);
  if (!view) notFound();
  const error = first(sp.error);
  const initial = first(sp.stale)
    ? { kind: 'stale' as const, message: participantStaleMessage }
    : first(sp.saved)
      ? { kind: 'saved' as const, message: 'Saved. Your preferences apply from now on.' }
      : error
        ? { kind: 'error' as const, message: plainFormError(first(sp.field)), field: first(sp.field)?.slice(0, 40) }
        : null;
  return (
    <main className="public-page">
      <div className="public-card">
        <h1>Your message preferences</h1>
        <p>
          {view.name ? `${view.name}, choose` : 'Choose'} how {view.tenantName} reaches you about your bookings. Messages that an event is cancelled always
          reach you.
        </p>
        <PublicPreferencesForm token={token} view={view} initial={initial} />
      </div>
    </main>
  );
}

/** What a plain form post that was refused says, by field: never text taken from the address bar (no one can put words on this page with a crafted link). */
function plainFormError(field: string | undefined): string {
  const what: Record<string, string> = {
    'preferences.reminders': 'the channels for reminders',
    'preferences.booking_updates': 'the channels for booking updates',
    'preferences.announcements': 'the channels for announcements',
    'quietHours.start': 'the start of your quiet hours (HH:MM)',
    'quietHours.end': 'the end of your quiet hours (HH:MM)',
    quietHours: 'your quiet hours (both times, different from each other)',
  };
  return `That was not saved: please check ${(field && what[field]) || 'your choices'} and try again.`;
}

