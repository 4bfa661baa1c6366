import type { Metadata } from 'next';
import { templateTitles } from '../../../components/template-labels';
import { previewData, renderReminderEmail, templateIds } from '../../../emails';
import { renderSmsText } from '../../../emails/sms';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Templates' };

/**
 * PLACEHOLDER for the SMS segment count (issue #9: how many GSM-7 or UCS-2 segments `text` takes). The lead
 * fills this in; until then it renders nothing.
 */
function SmsSegmentCount(props: { text: string }) {
  void props;
  return null;
}

/**
 * Every template (reminders and notifications) rendered with its sample data: the email at desktop and
 * phone widths, its plain-text part, and its SMS text.
 */
export default async function TemplatesPage() {
  const rendered = await Promise.all(
    templateIds.map(async (id) => ({
      id,
      ...(await renderReminderEmail(id, previewData[id])),
      sms: renderSmsText(id, previewData[id]),
    })),
  );
  return (
    <>
      <div className="page-head">
        <h1>Templates</h1>
        <p className="muted">
          Sample data from each template&apos;s preview props · the subject line as sent · desktop (600 px) and phone (375 px) · the SMS text
        </p>
      </div>
      {rendered.map((t) => (
        <section key={t.id} className="case-card template-preview" data-template={t.id}>
          <h2 className="section-title">{templateTitles[t.id]}</h2>
          <p>
            <span className="muted small">Subject</span> <strong>{t.subject}</strong>
          </p>
          <div className="template-frames">
            <iframe title={`${t.id} desktop`} srcDoc={t.html} sandbox="" style={{ width: 600, height: 560 }} />
            <iframe title={`${t.id} phone`} srcDoc={t.html} sandbox="" style={{ width: 375, height: 560 }} />
          </div>
          <details>
            <summary>Plain text</summary>
            <pre className="plain-text">{t.text}</pre>
          </details>
          <div className="template-sms" data-sms={t.id}>
            <h3>SMS</h3>
            <pre className="plain-text">{t.sms}</pre>
            <SmsSegmentCount text={t.sms} />
          </div>
        </section>
      ))}
    </>
  );
}
