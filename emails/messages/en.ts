/**
 * Punctual's built-in English text (the reference catalog: every other language has exactly its keys and, per
 * message, exactly its placeholders — test/unit/message-catalog.test.ts). ICU MessageFormat; the variables of each
 * message are listed in emails/messages/index.ts. Register: plain, friendly "you".
 */
const en = {
  /** Shared by every message kind: greeting, labels, footer, and the SMS pieces. */
  common: {
    /** `{name}`: the reader's name (typed text). */
    greeting: 'Hello {name},',
    greetingNoName: 'Hello,',
    /** Only to an external guest: `{tenantName}` is the organisation that invited them. */
    guestOf: 'You are invited as a guest of {tenantName}.',
    when: 'When',
    where: 'Where',
    onlineRoom: 'Online room',
    notes: 'Notes from the organiser',
    /** Label above the event's note for participants (`note` of the kind), in messages to participants. */
    eventNote: 'Please note',
    /** The same label in the host's reminder: the note is what participants read. */
    eventNoteForHosts: 'Note for participants',
    reason: 'Reason',
    footer: 'Sent by {tenantName} with Punctual because you take part in this event.',
    /** `{link}`: the person's preferences link (rendered as a link). */
    preferences: 'Choose how {tenantName} reaches you: {link}',
    /** `{category}`: reminders | booking_updates | announcements | none. */
    unsubscribe:
      '{category, select, reminders {Unsubscribe from reminders} booking_updates {Unsubscribe from booking updates} announcements {Unsubscribe from announcements} other {Unsubscribe from these messages}}',
    /** `{category}`: reminders | booking_updates | announcements — a preference category's name (preferences page, footer). */
    categoryLabel: '{category, select, reminders {Reminders} booking_updates {Booking updates} announcements {Announcements} other {Messages}}',
    /** Added in parentheses to the days of an all-day event. */
    allDay: 'all day',
    /** Added in parentheses to the reader's own time. */
    yourTime: 'your time',
    /** `{count}`: confirmed attendees and guests (host messages). */
    participants: '{count, plural, =0 {No participants have booked yet.} one {# participant has booked.} other {# participants have booked.}}',
    /** SMS: the event's time `{when}` followed by the reader's own clock `{time}`. */
    smsTheirTime: '{when} ({time} your time)',
    smsWhere: 'Where: {location}.',
    smsRoom: 'Room: {url}',
    smsReason: 'Reason: {reason}.',
    smsManage: 'Manage: {url}',
    /** A details-changed notice: `{field}` title | location | roomUrl | description — the label of one changed detail. */
    detailField: '{field, select, title {Title} location {Where} roomUrl {Online room} description {Notes from the organiser} other {Details}}',
    /** One changed detail's old value `{was}` and new value `{now}` (typed text, or `detailNone`). */
    detailChange: '{was} \u2192 {now}',
    /** In place of a detail that was empty before, or is empty now. */
    detailNone: '(none)',
    /** SMS: one changed detail as a sentence of its own; `{changes}` of a details-changed SMS is these, one after another. */
    smsDetailChange: '{field, select, title {Title} location {Where} roomUrl {Online room} description {Notes} other {Details}}: now {now} (was {was}).',
    actionPrompt: 'Will you be there?',
    actionConfirm: 'I’ll be there',
    actionDecline: 'I can’t come',
    smsAnswer: 'Coming? Answer here: {url}',
  },
  /**
   * Account mail (to staff, in the organisation's default language): `{tenantName}` the organisation, `{until}` when
   * the link stops working (date, time and zone, already formatted in the language), `{invitedBy}` who invited,
   * `{address}` the sender address being proven, `{role}` admin | staff | viewer. The greeting is common.greeting;
   * the link stands on its own line after `intro`.
   */
  account: {
    passwordResetSubject: 'Reset your Punctual password ({tenantName})',
    passwordResetIntro: 'Someone \u2014 probably you \u2014 asked to reset the password of your Punctual account at {tenantName}. Choose a new password here:',
    passwordResetValidity: 'The link works once, until {until}. Setting a new password signs you out everywhere else.',
    passwordResetIgnore: 'If you did not ask for this, ignore this email: your password stays as it is.',
    invitationSubject: 'You are invited to join {tenantName} on Punctual',
    invitationIntro:
      '{invitedBy} invited you to join {tenantName} on Punctual as {role, select, admin {an admin} staff {staff} other {a viewer}}. Choose your password here to accept:',
    invitationValidity: 'The link works once, until {until}.',
    invitationIgnore: 'If you do not want to join, ignore this email: nothing happens and the invitation expires.',
    registeredIntro:
      '{invitedBy} invited you to join {tenantName} on Punctual. Your address already has a Punctual account with another organisation, and one address can belong to only one organisation, so you cannot join {tenantName} with it.',
    registeredAdvice:
      'If you want to join, ask whoever invited you to invite another address of yours. {tenantName} has not been told that you have an account elsewhere: to them the invitation stays open until {until}, then expires.',
    registeredIgnore: 'If you do not want to join, ignore this email.',
    senderSubject: 'Confirm {address} as the sender address of {tenantName}',
    senderHeading: 'Confirm that {tenantName} may send its reminders from {address}',
    senderIntro:
      'An admin of {tenantName} set {address} as the organisation\u2019s sender address on Punctual. Until it is confirmed, its mail goes out from the deployment\u2019s own address with Reply-To {address}. To confirm, an admin of {tenantName} opens this link while signed in:',
    senderValidity: 'The link works once, until {until}, and only while {address} is still the organisation\u2019s sender address.',
    senderIgnore: 'If you did not expect this, ignore this email: nothing will be sent from {address}.',
  },
  'attendee-reminder': {
    subject: 'Reminder: {eventTitle} \u2014 {when}',
    /** `{allDay}`: yes | no. */
    intro: '{allDay, select, yes {Reminder: {eventTitle} is on {when}.} other {Reminder: {eventTitle} starts {when}.}}',
    closing: 'We look forward to seeing you.',
    /** `{eventNote}`: one line of the event's note for participants (typed text); shown only when there is a note. */
    note: '{eventNote}',
    sms: '{tenantName}: reminder - {eventTitle}, {when}.',
  },
  'room-opening': {
    /** `{time}`: when the room opens, a clock time in the event's zone. Also the heading. */
    subject: 'The room for {eventTitle} opens at {time}',
    intro: 'The online room for {eventTitle} opens at {time}. You can join from then with the button below.',
    button: 'Join the online room',
    roomOpens: 'Room opens',
    event: 'Event',
    roomLink: 'Room link (if the button does not work)',
    /** `{eventNote}`: one line of the event's note for participants (typed text); shown only when there is a note. */
    note: '{eventNote}',
    sms: '{tenantName}: the online room for {eventTitle} opens at {time}. Join: {url}',
  },
  'host-reminder': {
    subject: 'You are hosting {eventTitle} \u2014 {when}',
    heading: 'You are hosting {eventTitle}',
    intro:
      '{allDay, select, yes {A reminder that you are hosting {eventTitle} on {when}.} other {A reminder that you are hosting {eventTitle}, starting {when}.}}',
    /** `{eventNote}`: one line of the event's note for participants (typed text); shown only when there is a note. */
    note: '{eventNote}',
    sms: '{tenantName}: you are hosting {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    /** Also the heading. */
    subject: "You're booked: {eventTitle}",
    intro: '{allDay, select, yes {Your place at {eventTitle} is confirmed. It is on {when}.} other {Your place at {eventTitle} is confirmed. It starts {when}.}}',
    closing: 'A calendar entry is attached.',
    /** `{eventNote}`: one line of the event's note for participants (typed text); shown only when there is a note. */
    note: '{eventNote}',
    sms: "{tenantName}: you're booked - {eventTitle}, {when}.",
  },
  'booking-cancelled': {
    /** Also the heading. */
    subject: 'Your place at {eventTitle} was cancelled',
    intro: 'Your place at {eventTitle} on {when} was cancelled.',
    calendar: 'The attached calendar cancellation removes it from your calendar.',
    contact: 'If you did not expect this, please contact {tenantName}.',
    sms: '{tenantName}: your place at {eventTitle} on {when} was cancelled.',
  },
  'event-rescheduled': {
    /** Also the heading. */
    subject: '{eventTitle} has moved',
    /** `{was}`, `{now}`: the old and the new start, each in the zone it was planned in. */
    intro: '{eventTitle} has moved. Was: {was} \u00b7 Now: {now}.',
    now: 'Now',
    was: 'Was',
    closing: 'The calendar entry is updated.',
    sms: '{tenantName}: {eventTitle} has moved. Was: {was}. Now: {now}.',
  },
  'event-cancelled': {
    /** Also the heading. */
    subject: '{eventTitle} is cancelled',
    intro:
      '{allDay, select, yes {{eventTitle} is cancelled. It would have been on {when}.} other {{eventTitle} is cancelled. It would have started {when}.}}',
    wasPlannedFor: 'Was planned for',
    closing: 'Your place is cancelled with it; you do not need to do anything. The attached calendar cancellation removes it from your calendar.',
    sms: '{tenantName}: {eventTitle} on {when} is cancelled.',
  },
  'host-added': {
    /** Also the heading. */
    subject: "You're hosting {eventTitle}",
    intro:
      '{allDay, select, yes {You have been added as a host of {eventTitle}, which is on {when}.} other {You have been added as a host of {eventTitle}, which starts {when}.}}',
    sms: "{tenantName}: you're hosting {eventTitle}, {when}.",
  },
  'event-details-changed': {
    /** Also the heading. */
    subject: 'New details for {eventTitle}',
    intro:
      '{allDay, select, yes {Some details of {eventTitle} on {when} have changed.} other {Some details of {eventTitle}, which starts {when}, have changed.}}',
    closing: 'The calendar entry is updated.',
    sms: '{tenantName}: some details of {eventTitle} on {when} have changed. {changes}',
  },
  'confirmation-request': {
    /** A reminder asking to confirm; leads with the two action links. `{when}`: the event start; `{allDay}`: yes | no. */
    subject: 'Will you be at {eventTitle}? \u2014 {when}',
    heading: 'Will you be at {eventTitle}?',
    intro: '{allDay, select, yes {{eventTitle} is on {when}. Please let us know whether you will come.} other {{eventTitle} starts {when}. Please let us know whether you will come.}}',
    closing: 'One click is enough; you can change your mind until the event starts.',
    closingNoLinks: 'Please reply to this message to let us know.',
    sms: '{tenantName}: will you be at {eventTitle}, {when}?',
  },
  'booking-declined': {
    /** Also the heading. `{participantName}`: who cannot come (their name, else their address). */
    subject: '{participantName} can’t come to {eventTitle}',
    intro: '{participantName} said they cannot come to {eventTitle} on {when}. Their booking is cancelled and the place is free again.',
    sms: '{tenantName}: {participantName} can’t come to {eventTitle}, {when}.',
  },
  /**
   * The pages a person opens from a message (no sign-in): their preferences page and the one-click unsubscribe pages.
   * `{tenantName}` the organisation; `{name}` the person's name with `{hasName}` yes | no; `{category}` reminders |
   * booking_updates | announcements (a preference category; `other`: messages in general); `{what}` a category's name
   * as formatted by `categoryName`; `{channels}` email | sms | both; `{link}` a link whose words are
   * `preferencesPageLink`; `{zone}` an IANA time zone; `{start}`/`{end}` HH:MM; `{date}` a date already formatted.
   */
  pages: {
    preferencesTitle: 'Your message preferences',
    preferencesIntro: '{hasName, select, yes {{name}, choose how {tenantName} reaches you about your bookings.} other {Choose how {tenantName} reaches you about your bookings.}}',
    essentialNote: 'Messages that an event is cancelled always reach you.',
    categoryTitle:
      '{category, select, reminders {Reminders before your events} booking_updates {Updates about your bookings} announcements {Announcements from the organiser about your events} other {Messages}}',
    categoryName: '{category, select, reminders {reminders} booking_updates {booking updates} announcements {announcements} other {these messages}}',
    channel: '{channel, select, sms {Text message (SMS)} other {Email}}',
    phoneOnFile: 'Text messages go to the number we have for you: {phone}.',
    noPhone: 'We have no mobile number for you, so nothing can go by text message; ask {tenantName} to add one.',
    quietHours: 'Quiet hours',
    quietFrom: 'From',
    quietTo: 'To',
    quietHint:
      '{source, select, contact {Times in {zone}, your time zone.} other {Times in {zone}, the organiser’s time zone (we do not know yours).}} Reminders and updates due then wait until they end, when they still can. Leave both empty for none.',
    inShort: 'In short',
    summaryChannels:
      '{category, select, reminders {Reminders} booking_updates {Booking updates} announcements {Announcements} other {Messages}} by {channels, select, sms {SMS} both {SMS and email} other {email}}.',
    summaryNone:
      '{category, select, reminders {No reminders.} booking_updates {No booking updates (except essential ones such as event cancellations).} announcements {No announcements.} other {No messages.}}',
    summaryQuiet: 'Quiet hours {start}–{end} ({zone}) — reminders, booking updates and announcements due then wait until they end, if they can (event cancellations do not wait).',
    summaryNoQuiet: 'No quiet hours.',
    summaryNoPhone: 'No mobile number is on file, so nothing goes by SMS.',
    save: 'Save my preferences',
    saving: 'Saving…',
    saved: 'Saved. Your preferences apply from now on.',
    savedUnchanged: 'Saved — nothing had changed.',
    stale: 'These preferences were changed since you opened this page — here is what they are now.',
    notSaved:
      'That was not saved: please check {field, select, reminders {the channels for reminders} booking_updates {the channels for booking updates} announcements {the channels for announcements} quietStart {the start of your quiet hours (HH:MM)} quietEnd {the end of your quiet hours (HH:MM)} quietHours {your quiet hours (both times, different from each other)} other {your choices}} and try again.',
    serverError: 'Something went wrong on our side. Please try again in a moment.',
    offline: 'Could not reach the server — check your connection and try again.',
    unsubscribeTitle: 'Unsubscribe from {what}',
    unsubscribeQuestion: '{hasName, select, yes {Unsubscribe {name} from {what} from {tenantName}?} other {Unsubscribe from {what} from {tenantName}?}}',
    unsubscribeEffect: 'You will no longer get {what} from {tenantName} by email or text message.',
    unsubscribeButton: 'Unsubscribe',
    unsubscribeOr: 'Or choose which messages you get, on which channel and when, on {link}.',
    preferencesPageLink: 'your preferences page',
    unsubscribedTitle: '{already, select, yes {You are unsubscribed from {what}} other {Unsubscribed from {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} will no longer get {what} from {tenantName}.} other {You will no longer get {what} from {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} has not been getting {what} from {tenantName} since {date}.} other {You have not been getting {what} from {tenantName} since {date}.}}',
    changedMind: 'Changed your mind, or want fewer messages of another kind? Choose again on {link}.',
    problemExpiredTitle: 'This unsubscribe link has expired',
    problemExpired: 'It stopped working on {date}. To change what you receive, use the preferences link at the end of a recent message from the organiser.',
    problemInvalidTitle: 'This unsubscribe link does not work',
    problemInvalid: 'It may have been cut off or changed. Use the link in your most recent message, or the preferences link at its end.',
    problemGoneTitle: 'Nothing to unsubscribe',
    problemGone: 'This person is no longer on file, so there is nothing to unsubscribe.',
    nothingChanged: 'Nothing was changed.',
    linkBrokenTitle: 'This link does not work',
    linkBroken: 'We could not find the preferences this link points to. Please use the link in your most recent message, and make sure it was copied whole.',
    actionConfirmTitle: 'Will you be there?',
    actionConfirmQuestion: '{hasName, select, yes {{name}, will you be at {eventTitle} on {when}?} other {Will you be at {eventTitle} on {when}?}}',
    actionConfirmEffect: '{tenantName} will see that you are coming. Nothing else changes.',
    actionConfirmButton: 'Yes, I’ll be there',
    actionDeclineTitle: 'Can’t come?',
    actionDeclineQuestion: '{hasName, select, yes {{name}, tell {tenantName} that you cannot come to {eventTitle} on {when}.} other {Tell {tenantName} that you cannot come to {eventTitle} on {when}.}}',
    actionDeclineEffect: 'Your place will be cancelled so that someone else can have it, and you will get no more reminders for this event.',
    actionReason: 'Reason (optional — {tenantName} will read it)',
    actionDeclineButton: 'I can’t come — cancel my place',
    actionSwitch: '{answer, select, confirmed {Can’t come after all? {link}} other {Coming after all? {link}}}',
    actionSwitchLink: '{answer, select, confirmed {Tell {tenantName} that you cannot come} other {Confirm that you will come}}',
    actionDoneTitle: '{answer, select, confirmed {{already, select, yes {You had already confirmed} other {Thank you — see you there}}} other {{already, select, yes {Your place was already cancelled} other {Your place is cancelled}}}}',
    actionDoneBody: '{answer, select, confirmed {{tenantName} knows that you are coming to {eventTitle} on {when}.} other {{tenantName} knows that you cannot come to {eventTitle} on {when}. You will get no more reminders for it.}}',
    actionRefusedTitle: 'This answer is no longer possible',
    actionRefused: '{reason, select, event_cancelled {{eventTitle} is cancelled.} event_over {{eventTitle} is over.} other {Your place at {eventTitle} was cancelled. To book again, please contact {tenantName}.}}',
    actionExpiredTitle: 'This link has expired',
    actionExpired: 'It stopped working when the event ended, on {date}.',
    actionInvalidTitle: 'This link does not work',
    actionInvalid: 'It may have been cut off or changed. Please use the link in your most recent message from the organiser.',
    actionReasonRefusedTitle: 'Your reason could not be kept',
    actionReasonRefused: 'It contains characters that change the direction of text or cannot be stored. Please go back, remove them and send it again.',
    actionGoneTitle: 'Booking not found',
    actionGone: 'This booking is no longer on file, so there is nothing to answer.',
  },
};

export default en;

/**
 * The shape every language's catalog has: the English keys, each a message string. Declaring a catalog with this
 * type makes TypeScript report a missing or an extra key.
 */
export type Catalog = { readonly [K in keyof typeof en]: { readonly [M in keyof (typeof en)[K]]: string } };
