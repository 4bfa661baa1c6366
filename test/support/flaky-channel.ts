/**
 * An email channel for tests whose next sends can be made to fail: `failNext(n)` answers the next `n` sends with a
 * transient failure (SMTP 421, nothing handed over), after which it sends over real SMTP to `catcherUrl()` (read at
 * the first real send, so the harness's catcher may start after this is made).
 */
import { createSmtpChannel } from '@/channels/smtp';
import type { EmailChannel } from '@/channels/types';

export function flakyCatcherChannel(catcherUrl: () => string): { channel: EmailChannel; failNext(n: number): void } {
  let failing = 0;
  let smtp: EmailChannel | undefined;
  const channel: EmailChannel = {
    name: 'smtp',
    send: async (m, o) => {
      if (failing > 0) {
        failing -= 1;
        return { class: 'transient', code: '421', message: 'try again later' };
      }
      smtp ??= createSmtpChannel({ url: catcherUrl() });
      return smtp.send(m, o);
    },
    close: async () => {
      await smtp?.close();
    },
  };
  return { channel, failNext: (n) => void (failing = n) };
}
