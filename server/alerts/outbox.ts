/**
 * The alert outbox (issue #10 §6): each message a person is owed is one `alert_messages` row under a stable message
 * key (`alert:<tenant>:<condition>:<episode>:<started|cleared>:<route>:<recipient>`, unique → planning it again
 * plans nothing) plus a `send_alert` graphile job, added in the same transaction (invariant 1). Also the routes a
 * tenant's settings give (staff emails, the Slack-compatible webhook) and the task names. Evaluation
 * (server/alerts/evaluation.ts) and the test alert (server/alerts/settings.ts) plan here; server/alerts/sender.ts sends.
 */
import { createHash } from 'node:crypto';
import type { Tx } from '@/db/client';
import { insertAlertMessage } from '@/db/queries/alerts/alerts';
import { enqueueJob } from '@/db/queries/platform/jobs';
import type { AlertSettings } from '@/db/schema';
import type { AlertRoute } from '@/domain/vocabulary';
import { TASK } from '@/jobs/registry';

/** How long the worker's job for a message the web process sends itself waits before it may take it, ms. */
export const WEB_SEND_HEAD_START_MS = 30_000;

/** The recipient id of a Slack webhook URL in message keys: `slack-` + 16 hex of its SHA-256 (the URL is a credential). */
function slackRecipientId(url: string): string {
  return `slack-${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;
}

/** One route of a message: email to a staff member (recipient = user id) or the Slack URL (recipient = slackRecipientId). */
interface Route {
  route: AlertRoute;
  recipient: string;
  address: string;
}

/** The routes of a start: the chosen staff's emails (unless `emailSkipped`), then the Slack URL. */
export function routesFor(settings: AlertSettings, staff: { id: string; email: string }[], emailSkipped: boolean): Route[] {
  const routes: Route[] = emailSkipped ? [] : staff.map((s) => ({ route: 'email' as const, recipient: s.id, address: s.email }));
  if (settings.slackWebhookUrl) routes.push({ route: 'slack', recipient: slackRecipientId(settings.slackWebhookUrl), address: settings.slackWebhookUrl });
  return routes;
}

/**
 * Plans one message and its `send_alert` job in `tx`; null when its key was planned before. `jobAt`: when the job
 * may run (default now) — a web process that sends the message itself gives the worker's job a head start of a
 * few seconds, so the job is the safety net rather than a race for the claim.
 */
export async function planMessage(tx: Tx, m: Parameters<typeof insertAlertMessage>[1], jobAt?: Date): Promise<string | null> {
  const id = await insertAlertMessage(tx, m);
  if (id) await enqueueJob(tx, TASK.sendAlert, { id }, { jobKey: `send_alert:${id}`, jobKeyMode: 'replace', runAt: jobAt ?? null });
  return id;
}
