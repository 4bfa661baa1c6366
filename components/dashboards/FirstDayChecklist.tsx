import Link from 'next/link';
import { RULE_PRESETS, type FirstDayChecklist as Checklist } from '@/domain/dashboards/first-day';
import { DismissFirstDay } from './DismissFirstDay';

/**
 * "Your first day" on a new organisation's dashboard (domain/dashboards/first-day.ts): five steps, each ticked
 * from what is stored and linking to the page that does it; the rule step offers the three most common rules as
 * presets of the new-rule form. Admins may dismiss it for the organisation (components/dashboards/DismissFirstDay.tsx).
 */
export function FirstDayChecklist({ checklist, mayDismiss }: { checklist: Checklist; mayDismiss: boolean }) {
  const total = checklist.items.length;
  return (
    <section className="card first-day" aria-labelledby="first-day-title" data-testid="first-day">
      <div className="first-day-head">
        <h2 id="first-day-title">Your first day with Punctual</h2>
        <p className="muted small" data-testid="first-day-progress">
          {checklist.done} of {total} done
        </p>
      </div>
      <ol className="first-day-items">
        {checklist.items.map((item) => (
          <li key={item.id} className={`first-day-item${item.done ? ' is-done' : ''}`} data-item={item.id} data-done={item.done}>
            <span className="first-day-mark" aria-hidden="true">
              {item.done ? '✓' : ''}
            </span>
            <div>
              <p className="first-day-title">
                <strong>{item.title}</strong>
                <span className="visually-hidden">{item.done ? ' (done)' : ' (to do)'}</span>
              </p>
              {item.done ? null : (
                <>
                  <p className="muted small">{item.detail}</p>
                  <p className="first-day-actions">
                    {item.id === 'rule'
                      ? RULE_PRESETS.map((p) => (
                          <Link key={p.id} className="btn btn-small" href={`/rules/new?preset=${p.id}`}>
                            {p.label}
                          </Link>
                        ))
                      : null}
                    <Link className={item.id === 'rule' ? 'first-day-link' : 'btn btn-small'} href={item.href}>
                      {item.action}
                    </Link>
                  </p>
                </>
              )}
            </div>
          </li>
        ))}
      </ol>
      {mayDismiss ? <DismissFirstDay /> : null}
    </section>
  );
}
