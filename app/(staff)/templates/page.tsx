import type { Metadata } from 'next';
import { templateTitles } from '@/components/rules/template-labels';
import { previewData, renderReminderEmail, templateIds } from '@/emails';
import { renderSmsText } from '@/emails/sms';
import { describeSmsSegments } from '@/domain/sending/message-labels';
import { countSmsSegments, gsm7Septets } from '@/domain/sending/sms-segments';
import { preferencesUrl, signPreferenceToken } from '@/server/sending/preference-link';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Templates' };

/**
 * The SMS segment line under a template's SMS text (issue #9 §4, §8): "2 segments · GSM-7 · 170 characters",
 * "1 segment · UCS-2 · 64 characters" — how many message parts the text costs and in which encoding
 * (domain/sending/sms-segments.ts countSmsSegments; wording domain/sending/message-labels.ts describeSmsSegments). A text
 * that needs UCS-2 says which character forced it, since one character switches the whole message.
 */
function SmsSegmentCount({ text }: { text: string }) {
  const count = countSmsSegments(text);
  const forcing = count.encoding === 'UCS-2' ? [...text].find((ch) => gsm7Septets(ch) === null) : undefined;
  return (
    <p className="muted small sms-segments" data-testid="sms-segments" data-segments={count.segments} data-encoding={count.encoding}>
      {describeSmsSegments(text, count)}
      {forcing ? ` — UCS-2 because of “${forcing}” (U+${forcing.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})` : ''}
    </p>
  );
}

/**
 * Every template (reminders and notifications) rendered with its sample data: the email at desktop and
 * phone widths, its plain-text part, and its SMS text.
 */
export default async function TemplatesPage() {
  // Every real message carries the person's signed preferences link; the previews carry one of the real length
  // (signed with a throwaway key), so the SMS segment counts are what a send costs.
  const sampleId = '00000000-0000-4000-8000-000000000000';
  const link = preferencesUrl(process.env.PUNCTUAL_PUBLIC_URL ?? 'https://punctual.example', await signPreferenceToken({ tenantId: sampleId, contactId: sampleId }, 'preview-only'));
  const rendered = await Promise.all(
    templateIds.map(async (id) => {
      const data = { ...previewData[id], preferencesUrl: link };
      return { id, ...(await renderReminderEmail(id, data)), sms: renderSmsText(id, data) };
    }),
  );
  return (
    <>
      <div className="page-head">
        <h1>Templates</h1>
        <p className="muted">
          Sample data from each template&apos;s preview props · the subject line as sent · desktop (600 px) and phone (375 px) · the SMS text,
          with a preferences link of the length real messages carry (it is most of an SMS&apos;s length)
        </p>
      </div>
      {rendered.map((t) => (
        <section key={t.id} className="case-card template-preview" data-template={t.id}>
          <h2 className="section-title">{templateTitles[t.id]}</h2>
          <p>
            <span className="muted small">Subject</span> <strong>{t.subject}</strong>
          </p>
          <div className="template-frames">
            <iframe title={`${t.id} desktop`} srcDoc={t.html} sandbox="" style={{ width: 600, height: 760 }} />
            <iframe title={`${t.id} phone`} srcDoc={t.html} sandbox="" style={{ width: 375, height: 760 }} />
          </div>
          <details>
            <summary>Plain text</summary>
            <pre className="plain-text">{t.text}</pre>
          </details>
          <div className="template-sms" data-sms={t.id}>
            <h3>SMS</h3>
            <pre className="plain-text sms-text">{t.sms}</pre>
            <SmsSegmentCount text={t.sms} />
          </div>
        </section>
      ))}
    </>
  );
}
