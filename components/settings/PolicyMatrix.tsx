'use client';

import { notificationTemplates, type NotificationPolicy } from '@/domain/notifications/notification-policy';
import { bookingRoles, domainEventTypes, essentialTypes } from '@/domain/vocabulary';
import { notificationTemplateLabel } from '@/components/rules/template-labels';
import { eventTypeLabels, roleColumnLabels } from './notification-fields';

/**
 * The policy matrix: one row per domain event type (in staff words; the essential one marked), a checkbox per
 * role and the template. Read-only (`editable` false) it shows "notified" / "—" and the template's name.
 */
export function PolicyMatrix({ policy, editable, onChange }: { policy: NotificationPolicy; editable: boolean; onChange?: (key: string, value: string | boolean) => void }) {
  return (
    <table className="policy-matrix">
      <caption className="visually-hidden">Who is notified of each change, and with which template</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          {bookingRoles.map((r) => (
            <th scope="col" key={r}>
              {roleColumnLabels[r]}
            </th>
          ))}
          <th scope="col">Template</th>
        </tr>
      </thead>
      <tbody>
        {domainEventTypes.map((t) => (
          <tr key={t} data-event-type={t}>
            <th scope="row">
              {eventTypeLabels[t]}
              {essentialTypes.includes(t) ? <span className="tag" title="Sent even to people who opted out of booking updates">essential</span> : null}
            </th>
            {bookingRoles.map((r) => (
              <td key={r} data-label={roleColumnLabels[r]}>
                {editable ? (
                  <input
                    type="checkbox"
                    checked={policy[t][r]}
                    aria-label={`${eventTypeLabels[t]}: notify the ${roleColumnLabels[r].toLowerCase()}`}
                    onChange={(e) => onChange?.(`${t}.${r}`, e.target.checked)}
                  />
                ) : policy[t][r] ? (
                  <span>
                    ✓<span className="visually-hidden"> notified</span>
                  </span>
                ) : (
                  <span className="muted">
                    —<span className="visually-hidden"> not notified</span>
                  </span>
                )}
              </td>
            ))}
            <td data-label="Template">
              {editable ? (
                <select aria-label={`${eventTypeLabels[t]}: template`} value={policy[t].template} onChange={(e) => onChange?.(`${t}.template`, e.target.value)}>
                  {notificationTemplates[t].map((id) => (
                    <option key={id} value={id}>
                      {notificationTemplateLabel(id)}
                    </option>
                  ))}
                </select>
              ) : (
                notificationTemplateLabel(policy[t].template)
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
