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
      '{category, select, reminders {Afmelden voor herinneringen} booking_updates {Afmelden voor updates over je boekingen} announcements {Afmelden voor mededelingen} other {Afmelden voor deze berichten}}',
    categoryLabel: '{category, select, reminders {Herinneringen} booking_updates {Updates over je boekingen} announcements {Mededelingen} other {Berichten}}',
    allDay: 'hele dag',
    yourTime: 'jouw tijd',
    participants: '{count, plural, =0 {Er heeft nog niemand geboekt.} one {# deelnemer heeft geboekt.} other {# deelnemers hebben geboekt.}}',
    smsTheirTime: '{when} ({time} bij jou)',
    smsWhere: 'Waar: {location}.',
    smsRoom: 'Online ruimte: {url}',
    smsReason: 'Reden: {reason}.',
    smsManage: 'Voorkeuren: {url}',
  },
  account: {
    passwordResetSubject: 'Stel een nieuw Punctual-wachtwoord in ({tenantName})',
    passwordResetIntro: 'Iemand \u2013 waarschijnlijk jij \u2013 heeft gevraagd om het wachtwoord van je Punctual-account bij {tenantName} opnieuw in te stellen. Kies hier een nieuw wachtwoord:',
    passwordResetValidity: 'De link werkt één keer, tot {until}. Met een nieuw wachtwoord word je overal elders uitgelogd.',
    passwordResetIgnore: 'Heb je dit niet gevraagd? Dan kun je deze e-mail negeren: je wachtwoord blijft zoals het is.',
    invitationSubject: 'Je bent uitgenodigd voor {tenantName} op Punctual',
    invitationIntro:
      '{invitedBy} nodigt je uit om {role, select, admin {als beheerder} staff {als teamlid} other {met alleen leesrechten}} mee te doen bij {tenantName} op Punctual. Kies hier je wachtwoord om de uitnodiging aan te nemen:',
    invitationValidity: 'De link werkt één keer, tot {until}.',
    invitationIgnore: 'Wil je niet meedoen? Negeer deze e-mail dan: er gebeurt niets en de uitnodiging verloopt vanzelf.',
    registeredIntro:
      '{invitedBy} nodigt je uit om mee te doen bij {tenantName} op Punctual. Je adres heeft al een Punctual-account bij een andere organisatie, en een adres kan maar bij één organisatie horen. Met dit adres kun je dus niet meedoen bij {tenantName}.',
    registeredAdvice:
      'Wil je toch meedoen? Vraag degene die je heeft uitgenodigd dan om een ander adres van je uit te nodigen. {tenantName} weet niet dat je elders een account hebt: voor hen blijft de uitnodiging open tot {until} en verloopt dan.',
    registeredIgnore: 'Wil je niet meedoen? Dan kun je deze e-mail negeren.',
    senderSubject: 'Bevestig {address} als afzenderadres van {tenantName}',
    senderHeading: 'Bevestig dat {tenantName} herinneringen mag versturen vanaf {address}',
    senderIntro:
      'Een beheerder van {tenantName} heeft {address} op Punctual ingesteld als afzenderadres van de organisatie. Zolang het niet bevestigd is, gaat de e-mail uit vanaf het eigen adres van deze Punctual-installatie, met Reply-To {address}. Om te bevestigen opent een beheerder van {tenantName} deze link terwijl die is ingelogd:',
    senderValidity: 'De link werkt één keer, tot {until}, en alleen zolang {address} nog het afzenderadres van de organisatie is.',
    senderIgnore: 'Verwachtte je dit niet? Negeer deze e-mail dan: er wordt niets verstuurd vanaf {address}.',
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
