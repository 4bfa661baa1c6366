/** Punctual's built-in German text. Register: "Sie" (formal, as German businesses write to customers). */
import type { Catalog } from './en';

const de: Catalog = {
  common: {
    greeting: 'Guten Tag {name},',
    greetingNoName: 'Guten Tag,',
    guestOf: 'Sie sind als Gast von {tenantName} eingeladen.',
    when: 'Wann',
    where: 'Wo',
    onlineRoom: 'Online-Raum',
    notes: 'Hinweise der Veranstalter',
    eventNote: 'Bitte beachten Sie',
    eventNoteForHosts: 'Hinweis für die Teilnehmenden',
    reason: 'Grund',
    footer: 'Gesendet von {tenantName} mit Punctual, weil Sie an dieser Veranstaltung teilnehmen.',
    preferences: 'Legen Sie fest, wie {tenantName} Sie erreicht: {link}',
    unsubscribe:
      '{category, select, reminders {Erinnerungen abbestellen} booking_updates {Nachrichten zu Ihren Buchungen abbestellen} announcements {Mitteilungen der Veranstalter abbestellen} other {Diese Nachrichten abbestellen}}',
    categoryLabel: '{category, select, reminders {Erinnerungen} booking_updates {Nachrichten zu Ihren Buchungen} announcements {Mitteilungen} other {Nachrichten}}',
    allDay: 'ganztägig',
    yourTime: 'Ihre Ortszeit',
    participants: '{count, plural, =0 {Bisher hat noch niemand gebucht.} one {# Person hat gebucht.} other {# Personen haben gebucht.}}',
    smsTheirTime: '{when} ({time} bei Ihnen)',
    smsWhere: 'Ort: {location}.',
    smsRoom: 'Online-Raum: {url}',
    smsReason: 'Grund: {reason}.',
    smsManage: 'Einstellungen: {url}',
  },
  account: {
    passwordResetSubject: 'Punctual-Passwort zurücksetzen ({tenantName})',
    passwordResetIntro:
      'Jemand \u2013 wahrscheinlich Sie \u2013 hat angefordert, das Passwort Ihres Punctual-Kontos bei {tenantName} zurückzusetzen. Hier können Sie ein neues Passwort wählen:',
    passwordResetValidity: 'Der Link funktioniert einmal, bis {until}. Mit dem neuen Passwort werden Sie überall sonst abgemeldet.',
    passwordResetIgnore: 'Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail einfach: Ihr Passwort bleibt unverändert.',
    invitationSubject: 'Einladung zu {tenantName} auf Punctual',
    invitationIntro:
      '{invitedBy} hat Sie eingeladen, {tenantName} auf Punctual {role, select, admin {mit Administratorrechten} staff {als Teammitglied} other {mit Lesezugriff}} beizutreten. Hier wählen Sie Ihr Passwort und nehmen die Einladung an:',
    invitationValidity: 'Der Link funktioniert einmal, bis {until}.',
    invitationIgnore: 'Wenn Sie nicht beitreten möchten, ignorieren Sie diese E-Mail: Es passiert nichts, und die Einladung läuft ab.',
    registeredIntro:
      '{invitedBy} hat Sie eingeladen, {tenantName} auf Punctual beizutreten. Zu Ihrer Adresse gibt es bereits ein Punctual-Konto bei einer anderen Organisation, und eine Adresse kann nur zu einer Organisation gehören. Mit dieser Adresse können Sie {tenantName} daher nicht beitreten.',
    registeredAdvice:
      'Wenn Sie beitreten möchten, bitten Sie die einladende Person, eine andere Adresse von Ihnen einzuladen. {tenantName} erfährt nicht, dass Sie anderswo ein Konto haben: Dort bleibt die Einladung bis {until} offen und läuft dann ab.',
    registeredIgnore: 'Wenn Sie nicht beitreten möchten, ignorieren Sie diese E-Mail.',
    senderSubject: '{address} als Absenderadresse von {tenantName} bestätigen',
    senderHeading: 'Bestätigen Sie, dass {tenantName} Erinnerungen von {address} senden darf',
    senderIntro:
      'Eine Person mit Administratorrechten bei {tenantName} hat {address} auf Punctual als Absenderadresse der Organisation eingetragen. Bis zur Bestätigung gehen die E-Mails von der eigenen Adresse dieser Punctual-Installation aus, mit Reply-To {address}. Zur Bestätigung öffnet eine Person mit Administratorrechten bei {tenantName} diesen Link, während sie angemeldet ist:',
    senderValidity: 'Der Link funktioniert einmal, bis {until}, und nur solange {address} die Absenderadresse der Organisation ist.',
    senderIgnore: 'Falls Sie das nicht erwartet haben, ignorieren Sie diese E-Mail: Von {address} wird nichts gesendet.',
  },
  'attendee-reminder': {
    subject: 'Erinnerung: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Zur Erinnerung: {eventTitle} findet am {when} statt.} other {Zur Erinnerung: {eventTitle} beginnt am {when}.}}',
    closing: 'Wir freuen uns auf Sie.',
    note: '{eventNote}',
    sms: '{tenantName}: Erinnerung - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'Der Online-Raum für {eventTitle} öffnet um {time}',
    intro: 'Der Online-Raum für {eventTitle} öffnet um {time}. Ab dann können Sie über die Schaltfläche unten teilnehmen.',
    button: 'Zum Online-Raum',
    roomOpens: 'Raum öffnet',
    event: 'Veranstaltung',
    roomLink: 'Link zum Raum (falls die Schaltfläche nicht funktioniert)',
    note: '{eventNote}',
    sms: '{tenantName}: Der Online-Raum für {eventTitle} öffnet um {time}. Teilnehmen: {url}',
  },
  'host-reminder': {
    subject: 'Sie leiten {eventTitle} \u2013 {when}',
    heading: 'Sie leiten {eventTitle}',
    intro: '{allDay, select, yes {Zur Erinnerung: Sie leiten {eventTitle} am {when}.} other {Zur Erinnerung: Sie leiten {eventTitle}, Beginn am {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: Sie leiten {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Ihre Buchung ist bestätigt: {eventTitle}',
    intro:
      '{allDay, select, yes {Ihr Platz bei {eventTitle} ist bestätigt. Die Veranstaltung findet am {when} statt.} other {Ihr Platz bei {eventTitle} ist bestätigt. Beginn ist am {when}.}}',
    closing: 'Einen Kalendereintrag finden Sie im Anhang.',
    note: '{eventNote}',
    sms: '{tenantName}: Buchung bestätigt - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Ihr Platz bei {eventTitle} wurde storniert',
    intro: 'Ihr Platz bei {eventTitle} am {when} wurde storniert.',
    calendar: 'Mit der angehängten Kalenderabsage verschwindet der Termin aus Ihrem Kalender.',
    contact: 'Falls Sie damit nicht gerechnet haben, wenden Sie sich bitte an {tenantName}.',
    sms: '{tenantName}: Ihr Platz bei {eventTitle} am {when} wurde storniert.',
  },
  'event-rescheduled': {
    subject: '{eventTitle} wurde verschoben',
    intro: '{eventTitle} wurde verschoben. Bisher: {was} \u00b7 Neu: {now}.',
    now: 'Neuer Termin',
    was: 'Bisheriger Termin',
    closing: 'Der Kalendereintrag ist aktualisiert.',
    sms: '{tenantName}: {eventTitle} wurde verschoben. Bisher: {was}. Neu: {now}.',
  },
  'event-cancelled': {
    subject: '{eventTitle} fällt aus',
    intro:
      '{allDay, select, yes {{eventTitle} fällt aus. Die Veranstaltung war für {when} geplant.} other {{eventTitle} fällt aus. Beginn wäre am {when} gewesen.}}',
    wasPlannedFor: 'Geplant war',
    closing: 'Ihr Platz entfällt damit; Sie müssen nichts weiter tun. Mit der angehängten Kalenderabsage verschwindet der Termin aus Ihrem Kalender.',
    sms: '{tenantName}: {eventTitle} am {when} fällt aus.',
  },
  'host-added': {
    subject: 'Sie leiten {eventTitle}',
    intro:
      '{allDay, select, yes {Sie wurden als Leitung für {eventTitle} eingetragen. Die Veranstaltung findet am {when} statt.} other {Sie wurden als Leitung für {eventTitle} eingetragen. Beginn ist am {when}.}}',
    sms: '{tenantName}: Sie leiten {eventTitle}, {when}.',
  },
  pages: {
    preferencesTitle: 'Ihre Benachrichtigungseinstellungen',
    preferencesIntro: '{hasName, select, yes {{name}, legen Sie fest, wie {tenantName} Sie zu Ihren Buchungen erreicht.} other {Legen Sie fest, wie {tenantName} Sie zu Ihren Buchungen erreicht.}}',
    essentialNote: 'Nachrichten über die Absage einer Veranstaltung erhalten Sie immer.',
    categoryTitle:
      '{category, select, reminders {Erinnerungen vor Ihren Veranstaltungen} booking_updates {Neuigkeiten zu Ihren Buchungen} announcements {Mitteilungen der Veranstalter zu Ihren Veranstaltungen} other {Nachrichten}}',
    categoryName: '{category, select, reminders {Erinnerungen} booking_updates {Neuigkeiten zu Ihren Buchungen} announcements {Mitteilungen} other {diese Nachrichten}}',
    channel: '{channel, select, sms {SMS} other {E-Mail}}',
    phoneOnFile: 'SMS gehen an die Nummer, die wir von Ihnen haben: {phone}.',
    noPhone: 'Wir haben keine Mobilnummer von Ihnen, daher kann nichts per SMS kommen; bitten Sie {tenantName}, eine einzutragen.',
    quietHours: 'Ruhezeiten',
    quietFrom: 'Von',
    quietTo: 'Bis',
    quietHint:
      '{source, select, contact {Uhrzeiten in {zone}, Ihrer Zeitzone.} other {Uhrzeiten in {zone}, der Zeitzone der Veranstalter (Ihre kennen wir nicht).}} Erinnerungen und Neuigkeiten, die in diese Zeit fallen, warten bis zu ihrem Ende, sofern sie dann noch sinnvoll sind. Lassen Sie beide Felder leer, wenn Sie keine Ruhezeiten möchten.',
    inShort: 'Kurz gesagt',
    summaryChannels:
      '{category, select, reminders {Erinnerungen} booking_updates {Neuigkeiten zu Ihren Buchungen} announcements {Mitteilungen} other {Nachrichten}} per {channels, select, sms {SMS} both {E-Mail und SMS} other {E-Mail}}.',
    summaryNone:
      '{category, select, reminders {Keine Erinnerungen.} booking_updates {Keine Neuigkeiten zu Ihren Buchungen (außer wichtigen wie der Absage einer Veranstaltung).} announcements {Keine Mitteilungen.} other {Keine Nachrichten.}}',
    summaryQuiet: 'Ruhezeiten {start}–{end} ({zone}): Erinnerungen, Neuigkeiten und Mitteilungen, die in diese Zeit fallen, warten bis zu ihrem Ende, sofern möglich (Absagen warten nicht).',
    summaryNoQuiet: 'Keine Ruhezeiten.',
    summaryNoPhone: 'Es ist keine Mobilnummer hinterlegt, daher geht nichts per SMS.',
    save: 'Einstellungen speichern',
    saving: 'Wird gespeichert…',
    saved: 'Gespeichert. Ihre Einstellungen gelten ab sofort.',
    savedUnchanged: 'Gespeichert — es hatte sich nichts geändert.',
    stale: 'Diese Einstellungen wurden geändert, seit Sie die Seite geöffnet haben — so sind sie jetzt.',
    notSaved:
      'Das wurde nicht gespeichert: Bitte prüfen Sie {field, select, reminders {die Kanäle für Erinnerungen} booking_updates {die Kanäle für Neuigkeiten zu Ihren Buchungen} announcements {die Kanäle für Mitteilungen} quietStart {den Beginn Ihrer Ruhezeiten (HH:MM)} quietEnd {das Ende Ihrer Ruhezeiten (HH:MM)} quietHours {Ihre Ruhezeiten (beide Uhrzeiten, voneinander verschieden)} other {Ihre Auswahl}} und versuchen Sie es erneut.',
    serverError: 'Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es gleich noch einmal.',
    offline: 'Der Server ist nicht erreichbar — bitte prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    unsubscribeTitle: '{what} abbestellen',
    unsubscribeQuestion: '{hasName, select, yes {{what} von {tenantName} für {name} abbestellen?} other {{what} von {tenantName} abbestellen?}}',
    unsubscribeEffect: 'Sie erhalten dann keine {what} mehr von {tenantName}, weder per E-Mail noch per SMS.',
    unsubscribeButton: 'Abbestellen',
    unsubscribeOr: 'Oder legen Sie auf {link} fest, welche Nachrichten Sie wann und auf welchem Weg erhalten.',
    preferencesPageLink: 'Ihrer Einstellungsseite',
    unsubscribedTitle: '{already, select, yes {{what} sind bereits abbestellt} other {{what} abbestellt}}',
    unsubscribedBody: '{hasName, select, yes {{name} erhält keine {what} mehr von {tenantName}.} other {Sie erhalten keine {what} mehr von {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} erhält seit {date} keine {what} mehr von {tenantName}.} other {Sie erhalten seit {date} keine {what} mehr von {tenantName}.}}',
    changedMind: 'Doch anders entschieden oder möchten Sie weniger Nachrichten einer anderen Art? Wählen Sie neu auf {link}.',
  },
};

export default de;
