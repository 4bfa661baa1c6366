import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/db/client';
import { templateTitles } from '@/components/rules/template-labels';
import { languageLabel } from '@/components/messages/text-labels';
import { templateIds } from '@/domain/vocabulary';
import { catalogLocales } from '@/emails/messages';
import { textOverview, type TextState } from '@/server/messages/text-overview';
import { requireStaff } from '@/app/_http/session';
import '@/app/styles/templates.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Templates' };

/** What a (kind, language) sends now, in staff words. */
function stateText(s: TextState): string {
  const now = s.published === null ? 'Punctual’s text' : `Your text, version ${s.published}`;
  return s.draft ? `${now} · draft waiting` : now;
}

const segments = (n: number) => (n === 1 ? '1 segment' : `${n} segments`);

/** "SMS: 1 segment · 2 segments with the preferences link (GSM-7)"; words over the organisation's limit say so. */
function smsCostText(sms: NonNullable<TextState['sms']>, limit: number, builtIn: boolean): string {
  // Punctual's own text is sent as it is (the limit checks what the organisation saves): it says what to do about it.
  const over = sms.segments > limit ? ` — over your limit of ${limit}${builtIn ? ': write a shorter one' : ''}` : '';
  return `SMS: ${segments(sms.segments)}${over} · ${segments(sms.withLink)} with the preferences link (${sms.encoding})`;
}

/**
 * The message texts of the organisation: per message kind, every language Punctual ships text for, each saying
 * whether the organisation's own published text (which version), a draft, or Punctual's text is in use, and linking
 * to its editor (server/messages/text-overview.ts). The organisation's default language is marked.
 */
export default async function TemplatesPage() {
  const { tenant } = await requireStaff();
  const states = await textOverview(getDb(), tenant.id, tenant.name);
  const limit = tenant.smsSegmentLimit;
  const base = tenant.locale.split('-')[0].toLowerCase();
  const defaultBuiltIn = (catalogLocales as string[]).includes(base);
  return (
    <>
      <div className="page-head">
        <h1>Templates</h1>
        <p className="muted">
          The words of every message people get, per language. Open one to change its words, preview it for a real participant and publish it; Punctual’s own
          text is used wherever your organisation has not published one.
        </p>
        <p className="small muted" data-testid="sms-limit-note">
          Each language shows how many segments one text message of that kind takes with a sample event: its words, which your limit of {segments(limit)} is on
          (<Link href="/settings#smsSegmentLimit">Settings</Link>), and the whole message with the preferences link every text message ends with, which is what your
          provider bills.
        </p>
        {defaultBuiltIn ? null : (
          <p className="small muted" data-testid="default-language-note">
            Your organisation’s default language ({tenant.locale}) has no built-in text: its readers get English unless their own language is listed here.
          </p>
        )}
      </div>
      {templateIds.map((kind) => (
        <section key={kind} className="card text-kind" data-kind={kind} aria-labelledby={`kind-${kind}`}>
          <h2 id={`kind-${kind}`} className="section-title">
            {templateTitles[kind]}
          </h2>
          <ul className="text-languages">
            {states
              .filter((s) => s.kind === kind)
              .map((s) => (
                <li key={s.locale} data-locale={s.locale} data-state={s.published === null ? 'built-in' : 'own'} data-draft={s.draft || undefined}>
                  <Link href={`/templates/${kind}/${s.locale}`} className="text-language-link">
                    {languageLabel(s.locale)}
                  </Link>
                  {s.locale === base ? <span className="tag">your default</span> : null}
                  <span className={`small ${s.published === null ? 'muted' : 'text-own'}`}>{stateText(s)}</span>
                  {s.sms ? (
                    <span className={`small text-sms${s.sms.segments > limit ? ' text-sms-over' : ''}`} data-testid="sms-cost" data-segments={s.sms.segments}>
                      {smsCostText(s.sms, limit, s.published === null)}
                    </span>
                  ) : null}
                </li>
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}
