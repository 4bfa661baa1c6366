import type { Metadata } from 'next';
import { previewData, renderReminderEmail, templateIds } from '../../../emails';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Templates' };

const titles: Record<(typeof templateIds)[number], string> = {
  'attendee-reminder': 'Attendee reminder',
  'room-opening': 'Room opening (attendees and external guests)',
  'host-reminder': 'Host reminder',
};

/** Every email template rendered with its sample data: desktop and phone widths, HTML and plain text. */
export default async function TemplatesPage() {
  const rendered = await Promise.all(templateIds.map(async (id) => ({ id, ...(await renderReminderEmail(id, previewData[id])) })));
  return (
    <>
      <div className="page-head">
        <h1>Templates</h1>
        <p className="muted">Sample data from each template&apos;s preview props · the subject line as sent · desktop (600 px) and phone (375 px)</p>
      </div>
      {rendered.map((t) => (
        <section key={t.id} className="case-card template-preview" data-template={t.id}>
          <h2 className="section-title">{titles[t.id]}</h2>
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
        </section>
      ))}
    </>
  );
}
