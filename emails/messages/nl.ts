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
  pages: {
    preferencesTitle: 'Jouw berichtvoorkeuren',
    preferencesIntro: '{hasName, select, yes {{name}, kies hoe {tenantName} je bereikt over je boekingen.} other {Kies hoe {tenantName} je bereikt over je boekingen.}}',
    essentialNote: 'Berichten dat een evenement niet doorgaat, krijg je altijd.',
    categoryTitle:
      '{category, select, reminders {Herinneringen vóór je evenementen} booking_updates {Updates over je boekingen} announcements {Mededelingen van de organisator over je evenementen} other {Berichten}}',
    categoryName: '{category, select, reminders {herinneringen} booking_updates {updates over je boekingen} announcements {mededelingen} other {deze berichten}}',
    channel: '{channel, select, sms {Sms} other {E-mail}}',
    phoneOnFile: 'Sms’jes gaan naar het nummer dat we van je hebben: {phone}.',
    noPhone: 'We hebben geen mobiel nummer van je, dus er kan niets per sms; vraag {tenantName} om het toe te voegen.',
    quietHours: 'Rustige uren',
    quietFrom: 'Van',
    quietTo: 'Tot',
    quietHint:
      '{source, select, contact {Tijden in {zone}, jouw tijdzone.} other {Tijden in {zone}, de tijdzone van de organisator (de jouwe kennen we niet).}} Herinneringen en updates die dan vallen, wachten tot de rustige uren voorbij zijn, als dat nog kan. Laat beide leeg als je geen rustige uren wilt.',
    inShort: 'Kort gezegd',
    summaryChannels:
      '{category, select, reminders {Herinneringen} booking_updates {Updates over je boekingen} announcements {Mededelingen} other {Berichten}} per {channels, select, sms {sms} both {e-mail en sms} other {e-mail}}.',
    summaryNone:
      '{category, select, reminders {Geen herinneringen.} booking_updates {Geen updates over je boekingen (behalve de belangrijke, zoals het afgelasten van een evenement).} announcements {Geen mededelingen.} other {Geen berichten.}}',
    summaryQuiet: 'Rustige uren {start}–{end} ({zone}): herinneringen, updates en mededelingen die dan vallen, wachten tot ze voorbij zijn, als dat kan (een afgelast evenement wacht niet).',
    summaryNoQuiet: 'Geen rustige uren.',
    summaryNoPhone: 'Er staat geen mobiel nummer van je genoteerd, dus er gaat niets per sms.',
    save: 'Voorkeuren opslaan',
    saving: 'Bezig met opslaan…',
    saved: 'Opgeslagen. Je voorkeuren gelden vanaf nu.',
    savedUnchanged: 'Opgeslagen — er was niets veranderd.',
    stale: 'Deze voorkeuren zijn gewijzigd sinds je deze pagina opende — zo staan ze er nu voor.',
    notSaved:
      'Dat is niet opgeslagen: controleer {field, select, reminders {de kanalen voor herinneringen} booking_updates {de kanalen voor updates over je boekingen} announcements {de kanalen voor mededelingen} quietStart {het begin van je rustige uren (UU:MM)} quietEnd {het einde van je rustige uren (UU:MM)} quietHours {je rustige uren (beide tijden, en niet gelijk aan elkaar)} other {je keuzes}} en probeer het opnieuw.',
    serverError: 'Er ging bij ons iets mis. Probeer het zo nog eens.',
    offline: 'De server is niet bereikbaar — controleer je verbinding en probeer het opnieuw.',
    unsubscribeTitle: 'Afmelden voor {what}',
    unsubscribeQuestion: '{hasName, select, yes {{name} afmelden voor {what} van {tenantName}?} other {Afmelden voor {what} van {tenantName}?}}',
    unsubscribeEffect: 'Je krijgt dan geen {what} meer van {tenantName}, niet per e-mail en niet per sms.',
    unsubscribeButton: 'Afmelden',
    unsubscribeOr: 'Of kies op {link} welke berichten je krijgt, hoe en wanneer.',
    preferencesPageLink: 'je voorkeurenpagina',
    unsubscribedTitle: '{already, select, yes {Je bent al afgemeld voor {what}} other {Afgemeld voor {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} krijgt geen {what} meer van {tenantName}.} other {Je krijgt geen {what} meer van {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} krijgt sinds {date} geen {what} meer van {tenantName}.} other {Je krijgt sinds {date} geen {what} meer van {tenantName}.}}',
    changedMind: 'Toch van gedachten veranderd, of wil je minder berichten van een ander soort? Kies opnieuw op {link}.',
  },
};

export default nl;
