/** Punctual's built-in Dutch text. Register: "je" (informal, as Dutch studios and shops write to customers). */
import type { Catalog } from './en';

const nl: Catalog = {
  common: {
    greeting: 'Hallo {name},',
    greetingNoName: 'Hallo,',
    guestOf: 'Je bent uitgenodigd als gast van {tenantName}.',
    when: 'Wanneer',
    where: 'Waar',
    onlineRoom: 'Online ruimte',
    notes: 'Opmerkingen van de organisator',
    eventNote: 'Let op',
    eventNoteForHosts: 'Notitie voor deelnemers',
    reason: 'Reden',
    footer: 'Verstuurd door {tenantName} via Punctual, omdat je aan deze activiteit deelneemt.',
    preferences: 'Kies hoe {tenantName} je bereikt: {link}',
    unsubscribe:
      '{category, select, reminders {Afmelden voor herinneringen} booking_updates {Afmelden voor updates over je boekingen} other {Afmelden voor deze berichten}}',
    allDay: 'hele dag',
    yourTime: 'jouw tijd',
    participants: '{count, plural, =0 {Er heeft nog niemand geboekt.} one {# deelnemer heeft geboekt.} other {# deelnemers hebben geboekt.}}',
    smsTheirTime: '{when} ({time} bij jou)',
    smsWhere: 'Waar: {location}.',
    smsRoom: 'Online ruimte: {url}',
    smsReason: 'Reden: {reason}.',
    smsManage: 'Voorkeuren: {url}',
  },
  'attendee-reminder': {
    subject: 'Herinnering: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Even een herinnering: {eventTitle} is op {when}.} other {Even een herinnering: {eventTitle} begint op {when}.}}',
    closing: 'Tot dan!',
    note: '{eventNote}',
    sms: '{tenantName}: herinnering - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'De online ruimte voor {eventTitle} gaat open om {time}',
    intro: 'De online ruimte voor {eventTitle} gaat open om {time}. Vanaf dan kun je meedoen via de knop hieronder.',
    button: 'Naar de online ruimte',
    roomOpens: 'Ruimte gaat open',
    event: 'Activiteit',
    roomLink: 'Link naar de ruimte (als de knop niet werkt)',
    note: '{eventNote}',
    sms: '{tenantName}: de online ruimte voor {eventTitle} gaat open om {time}. Meedoen: {url}',
  },
  'host-reminder': {
    subject: 'Je bent host van {eventTitle} \u2013 {when}',
    heading: 'Je bent host van {eventTitle}',
    intro:
      '{allDay, select, yes {Even een herinnering: je bent host van {eventTitle} op {when}.} other {Even een herinnering: je bent host van {eventTitle}. Het begint op {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: je bent host van {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Je bent ingeschreven: {eventTitle}',
    intro: '{allDay, select, yes {Je plek bij {eventTitle} is bevestigd. Het is op {when}.} other {Je plek bij {eventTitle} is bevestigd. Het begint op {when}.}}',
    closing: 'Je vindt een agenda-afspraak in de bijlage.',
    note: '{eventNote}',
    sms: '{tenantName}: je bent ingeschreven - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Je plek bij {eventTitle} is geannuleerd',
    intro: 'Je plek bij {eventTitle} op {when} is geannuleerd.',
    calendar: 'Met de bijgevoegde annulering verdwijnt de afspraak uit je agenda.',
    contact: 'Had je dit niet verwacht? Neem dan contact op met {tenantName}.',
    sms: '{tenantName}: je plek bij {eventTitle} op {when} is geannuleerd.',
  },
  'event-rescheduled': {
    subject: '{eventTitle} is verplaatst',
    intro: '{eventTitle} is verplaatst. Oude tijd: {was} \u00b7 Nieuwe tijd: {now}.',
    now: 'Nieuwe tijd',
    was: 'Oude tijd',
    closing: 'De afspraak in je agenda is bijgewerkt.',
    sms: '{tenantName}: {eventTitle} is verplaatst. Oud: {was}. Nieuw: {now}.',
  },
  'event-cancelled': {
    subject: '{eventTitle} gaat niet door',
    intro:
      '{allDay, select, yes {{eventTitle} gaat niet door. Het stond gepland op {when}.} other {{eventTitle} gaat niet door. Het zou beginnen op {when}.}}',
    wasPlannedFor: 'Stond gepland op',
    closing: 'Je plek vervalt daarmee; je hoeft niets te doen. Met de bijgevoegde annulering verdwijnt de afspraak uit je agenda.',
    sms: '{tenantName}: {eventTitle} op {when} gaat niet door.',
  },
  'host-added': {
    subject: 'Je bent host van {eventTitle}',
    intro:
      '{allDay, select, yes {Je bent toegevoegd als host van {eventTitle}. Het is op {when}.} other {Je bent toegevoegd als host van {eventTitle}. Het begint op {when}.}}',
    sms: '{tenantName}: je bent host van {eventTitle}, {when}.',
  },
};

export default nl;
