'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { announce } from '@/components/ui/Announcer';
import { apiCall } from '@/components/ui/api';
import { ConfirmDialog } from '@/components/ui/ConfirmDialog';
import { sendAgainWarning } from '@/domain/sending/message-labels';
import type { Channel } from '@/domain/vocabulary';

type Action = 'replay' | 'discard' | 'mark-sent' | 'send-again';

/**
 * Operator actions on one dead letter (replay, discard) or unknown outcome (mark as sent, send again) on any
 * channel, each behind a confirmation that says what will happen — "send again" warns in the channel's own
 * terms (domain/sending/message-labels.ts sendAgainWarning). Every action is audited by the server. Once done, a polite
 * notice names the recipient (components/ui/Announcer.tsx) — the card itself leaves the list.
 */
export function CaseActions({
  deliveryId,
  status,
  address,
  channel = 'email',
}: {
  deliveryId: string;
  status: 'dead' | 'unknown';
  address: string;
  channel?: Channel;
}) {
  const router = useRouter();
  const [open, setOpen] = useState<Action | null>(null);
  const run = (action: Action) => async (reason: string) => {
    await apiCall(`/api/deliveries/${deliveryId}/${action}`, 'POST', { reason });
    const follow = { href: `/deliveries/${deliveryId}`, label: 'Follow it →' };
    announce(
      action === 'replay'
        ? { key: `replay:${deliveryId}`, text: `Replayed: sending to ${address} again now.`, link: follow }
        : action === 'send-again'
          ? { key: `send-again:${deliveryId}`, text: `Sending to ${address} again now.`, link: follow }
          : action === 'discard'
            ? { key: `discard:${deliveryId}`, text: `Discarded: nothing will be sent to ${address}.` }
            : { key: `mark-sent:${deliveryId}`, text: `Marked as sent to ${address}.` },
    );
    router.refresh();
  };
  return (
    <div className="actions case-actions">
      {status === 'dead' ? (
        <>
          <button type="button" className="btn btn-primary btn-small" onClick={() => setOpen('replay')}>
            Replay
          </button>
          <button type="button" className="btn btn-small" onClick={() => setOpen('discard')}>
            Discard…
          </button>
        </>
      ) : (
        <>
          <button type="button" className="btn btn-small" onClick={() => setOpen('mark-sent')}>
            Mark as sent…
          </button>
          <button type="button" className="btn btn-small" onClick={() => setOpen('send-again')}>
            Send again…
          </button>
        </>
      )}
      <ConfirmDialog open={open === 'replay'} title="Replay this dead letter?" confirmLabel="Replay now" onClose={() => setOpen(null)} onConfirm={run('replay')}>
        <p className="dialog-consequence">
          The same message (same message key) is queued for {address} now, with a fresh retry budget. If its expiry instant has passed (a
          reminder&apos;s late-send window, a booking notification&apos;s 24 hours), the server refuses: nothing is sent after it.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'discard'}
        title="Discard this dead letter?"
        confirmLabel="Discard"
        tone="danger"
        reasonLabel="Why is it not worth sending? (audited)"
        onClose={() => setOpen(null)}
        onConfirm={run('discard')}
      >
        <p className="dialog-consequence">Nothing will be sent to {address}. The delivery stays in the log as discarded, with your reason.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'mark-sent'}
        title="Mark as sent?"
        confirmLabel="Mark as sent"
        reasonLabel="How do you know it went out? (audited)"
        onClose={() => setOpen(null)}
        onConfirm={run('mark-sent')}
      >
        <p className="dialog-consequence">
          Use this when you have evidence the message reached {address} (e.g. the provider&apos;s {channel === 'webhook' ? 'or receiver’s ' : ''}log). Nothing is sent.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={open === 'send-again'}
        title="Send again?"
        confirmLabel="Send again"
        tone="danger"
        reasonLabel="Reason (audited)"
        onClose={() => setOpen(null)}
        onConfirm={run('send-again')}
      >
        <p className="dialog-consequence notice-warn">⚠ {sendAgainWarning(channel, address)}</p>
      </ConfirmDialog>
    </div>
  );
}
