/**
 * The switch of the development mailbox, apart from the mailbox itself (dev/caught-mail.ts): the staff layout asks it
 * whether to show the Mailbox link, and production code never imports dev/.
 */

/**
 * Whether this web process serves the development mailbox: `PUNCTUAL_MAILBOX` is `1` or `true` (set by
 * `npm start`, which runs the built-in catchers; an operator trying the production set-up with
 * `npm run mail-catcher` sets it by hand). Anything else, unset included: the pages and API answer 404.
 */
export function mailboxEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.PUNCTUAL_MAILBOX === '1' || env.PUNCTUAL_MAILBOX === 'true';
}
