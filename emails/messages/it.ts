/**
 * Punctual's built-in Italian text. Register: "tu" (as Italian studios and booking services write to customers).
 * Sentences avoid past participles that would have to agree with a reader's gender ("persona prenotata",
 * "ti è stata affidata").
 */
import type { Catalog } from './en';

const it: Catalog = {
  common: {
    greeting: 'Ciao {name},',
    greetingNoName: 'Ciao,',
    guestOf: 'Partecipi su invito di {tenantName}.',
    when: 'Quando',
    where: 'Dove',
    onlineRoom: 'Stanza online',
    notes: 'Note dell’organizzazione',
    eventNote: 'Da sapere',
    eventNoteForHosts: 'Nota per chi partecipa',
    reason: 'Motivo',
    footer: 'Inviato da {tenantName} con Punctual perché partecipi a questo evento.',
    preferences: 'Scegli come {tenantName} può contattarti: {link}',
    unsubscribe:
      '{category, select, reminders {Non ricevere più promemoria} booking_updates {Non ricevere più aggiornamenti sulle prenotazioni} other {Non ricevere più questi messaggi}}',
    allDay: 'tutto il giorno',
    yourTime: 'la tua ora',
    participants: '{count, plural, =0 {Nessuna prenotazione per ora.} one {# persona prenotata.} other {# persone prenotate.}}',
    smsTheirTime: '{when} ({time}, la tua ora)',
    smsWhere: 'Dove: {location}.',
    smsRoom: 'Stanza online: {url}',
    smsReason: 'Motivo: {reason}.',
    smsManage: 'Preferenze: {url}',
  },
  'attendee-reminder': {
    subject: 'Promemoria: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Ti ricordiamo che {eventTitle} si tiene {when}.} other {Ti ricordiamo che {eventTitle} inizia {when}.}}',
    closing: 'Ti aspettiamo!',
    note: '{eventNote}',
    sms: '{tenantName}: promemoria - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'La stanza online di {eventTitle} apre alle {time}',
    intro: 'La stanza online di {eventTitle} apre alle {time}. Da quel momento puoi entrare con il pulsante qui sotto.',
    button: 'Entra nella stanza online',
    roomOpens: 'Apertura della stanza',
    event: 'Evento',
    roomLink: 'Link alla stanza (se il pulsante non funziona)',
    note: '{eventNote}',
    sms: '{tenantName}: la stanza online di {eventTitle} apre alle {time}. Entra: {url}',
  },
  'host-reminder': {
    subject: 'Conduci {eventTitle} \u2013 {when}',
    heading: 'Conduci {eventTitle}',
    intro: '{allDay, select, yes {Ti ricordiamo che conduci {eventTitle}, {when}.} other {Ti ricordiamo che conduci {eventTitle}, che inizia {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: conduci {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Prenotazione confermata: {eventTitle}',
    intro: '{allDay, select, yes {Il tuo posto per {eventTitle} è confermato. Si tiene {when}.} other {Il tuo posto per {eventTitle} è confermato. Inizia {when}.}}',
    closing: 'In allegato trovi l’evento per il tuo calendario.',
    note: '{eventNote}',
    sms: '{tenantName}: prenotazione confermata - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Il tuo posto per {eventTitle} è stato annullato',
    intro: 'Il tuo posto per {eventTitle}, {when}, è stato annullato.',
    calendar: 'L’annullamento allegato lo toglie dal tuo calendario.',
    contact: 'Se non te lo aspettavi, contatta {tenantName}.',
    sms: '{tenantName}: il tuo posto per {eventTitle}, {when}, è stato annullato.',
  },
  'event-rescheduled': {
    subject: 'Nuovo orario per {eventTitle}',
    intro: '{eventTitle} cambia orario. Prima: {was} \u00b7 Ora: {now}.',
    now: 'Nuovo orario',
    was: 'Orario precedente',
    closing: 'L’evento nel tuo calendario è stato aggiornato.',
    sms: '{tenantName}: {eventTitle} cambia orario. Prima: {was}. Ora: {now}.',
  },
  'event-cancelled': {
    subject: 'Annullamento: {eventTitle}',
    intro: '{allDay, select, yes {{eventTitle} non si terrà. Era in programma {when}.} other {{eventTitle} non si terrà. Doveva iniziare {when}.}}',
    wasPlannedFor: 'Era in programma',
    closing: 'Anche il tuo posto è annullato; non devi fare nulla. L’annullamento allegato lo toglie dal tuo calendario.',
    sms: '{tenantName}: {eventTitle}, {when}, non si terrà.',
  },
  'host-added': {
    subject: 'Conduci {eventTitle}',
    intro:
      '{allDay, select, yes {Ti è stata affidata la conduzione di {eventTitle}, che si tiene {when}.} other {Ti è stata affidata la conduzione di {eventTitle}, che inizia {when}.}}',
    sms: '{tenantName}: conduci {eventTitle}, {when}.',
  },
};

export default it;
