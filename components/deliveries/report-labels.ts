import type { ReportKind, ReportSource } from '@/domain/vocabulary';

/** A delivery report's kind in words (issue #10), for the timeline and the delivery page. */
export const reportKindLabels: Record<ReportKind, string> = {
  queued: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  deferred: 'deferred',
  soft_bounce: 'soft bounce',
  hard_bounce: 'hard bounce',
  complaint: 'complaint (marked as spam)',
  undelivered: 'undelivered',
  failed: 'failed',
};

/** Badge tone per report kind: bad news red, "later" amber, good news green, the rest plain. */
export const reportKindTones: Record<ReportKind, 'ok' | 'bad' | 'retry' | 'muted'> = {
  queued: 'muted',
  sent: 'muted',
  delivered: 'ok',
  deferred: 'retry',
  soft_bounce: 'retry',
  hard_bounce: 'bad',
  complaint: 'bad',
  undelivered: 'bad',
  failed: 'bad',
};

/** Where a report came from, in words. */
export const reportSourceLabels: Record<ReportSource, string> = {
  http_api: 'email provider event',
  sms_api: 'SMS status callback',
  smtp_dsn: 'bounce message (DSN)',
};
