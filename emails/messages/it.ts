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
      '{category, select, reminders {Non ricevere più promemoria} booking_updates {Non ricevere più aggiornamenti sulle prenotazioni} announcements {Non ricevere più comunicazioni} other {Non ricevere più questi messaggi}}',
    categoryLabel: '{category, select, reminders {Promemoria} booking_updates {Aggiornamenti sulle prenotazioni} announcements {Comunicazioni} other {Messaggi}}',
    allDay: 'tutto il giorno',
    yourTime: 'la tua ora',
    participants: '{count, plural, =0 {Nessuna prenotazione per ora.} one {# persona prenotata.} other {# persone prenotate.}}',
    smsTheirTime: '{when} ({time}, la tua ora)',
    smsWhere: 'Dove: {location}.',
    smsRoom: 'Stanza online: {url}',
    smsReason: 'Motivo: {reason}.',
    smsManage: 'Preferenze: {url}',
  },
  account: {
    passwordResetSubject: 'Reimposta la password di Punctual ({tenantName})',
    passwordResetIntro: 'Qualcuno, probabilmente tu, ha chiesto di reimpostare la password del tuo account Punctual presso {tenantName}. Scegli qui una nuova password:',
    passwordResetValidity: 'Il link funziona una sola volta ed è valido fino a {until}. Con la nuova password, le altre sessioni aperte verranno chiuse.',
    passwordResetIgnore: 'Se non l’hai chiesto tu, ignora questa email: la tua password resta invariata.',
    invitationSubject: 'Invito a unirti a {tenantName} su Punctual',
    invitationIntro:
      '{invitedBy} ti invita a unirti a {tenantName} su Punctual {role, select, admin {con i permessi di amministrazione} staff {come membro del team} other {con accesso in sola lettura}}. Scegli qui la tua password per accettare:',
    invitationValidity: 'Il link funziona una sola volta ed è valido fino a {until}.',
    invitationIgnore: 'Se non vuoi unirti, ignora questa email: non succede nulla e l’invito scadrà.',
    registeredIntro:
      '{invitedBy} ti invita a unirti a {tenantName} su Punctual. Il tuo indirizzo ha già un account Punctual presso un’altra organizzazione e un indirizzo può appartenere a una sola organizzazione: con questo indirizzo, quindi, non puoi unirti a {tenantName}.',
    registeredAdvice:
      'Se vuoi unirti, chiedi a chi ha inviato l’invito di invitare un altro tuo indirizzo. {tenantName} non sa che hai un account altrove: per loro l’invito resta aperto fino a {until}, poi scade.',
    registeredIgnore: 'Se non vuoi unirti, ignora questa email.',
    senderSubject: 'Conferma {address} come indirizzo mittente di {tenantName}',
    senderHeading: 'Conferma che {tenantName} può inviare i suoi promemoria da {address}',
    senderIntro:
      'Una persona con i permessi di amministrazione di {tenantName} ha impostato {address} come indirizzo mittente dell’organizzazione su Punctual. Finché non viene confermato, le email partono dall’indirizzo di questa installazione di Punctual, con Reply-To {address}. Per confermare, una persona con i permessi di amministrazione di {tenantName} apre questo link dopo aver effettuato l’accesso:',
    senderValidity: 'Il link funziona una sola volta, è valido fino a {until} e solo finché {address} resta l’indirizzo mittente dell’organizzazione.',
    senderIgnore: 'Se non te lo aspettavi, ignora questa email: da {address} non verrà inviato nulla.',
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
  pages: {
    preferencesTitle: 'Le tue preferenze sui messaggi',
    preferencesIntro: '{hasName, select, yes {{name}, scegli come {tenantName} può contattarti per le tue prenotazioni.} other {Scegli come {tenantName} può contattarti per le tue prenotazioni.}}',
    essentialNote: 'I messaggi che annunciano l’annullamento di un evento ti arrivano sempre.',
    categoryTitle:
      '{category, select, reminders {Promemoria prima dei tuoi eventi} booking_updates {Aggiornamenti sulle tue prenotazioni} announcements {Comunicazioni dell’organizzatore sui tuoi eventi} other {Messaggi}}',
    categoryName: '{category, select, reminders {promemoria} booking_updates {aggiornamenti sulle tue prenotazioni} announcements {comunicazioni} other {messaggi}}',
    channel: '{channel, select, sms {SMS} other {Email}}',
    phoneOnFile: 'Gli SMS arrivano al numero che abbiamo per te: {phone}.',
    noPhone: 'Non abbiamo un tuo numero di cellulare, quindi non possiamo inviarti SMS; chiedi a {tenantName} di aggiungerlo.',
    quietHours: 'Fascia di silenzio',
    quietFrom: 'Dalle',
    quietTo: 'Alle',
    quietHint:
      '{source, select, contact {Orari nel fuso {zone}, il tuo.} other {Orari nel fuso {zone}, quello dell’organizzatore (non conosciamo il tuo).}} Promemoria e aggiornamenti previsti in quella fascia aspettano che finisca, se sono ancora utili. Lascia vuoti entrambi i campi se non ne vuoi una.',
    inShort: 'In breve',
    summaryChannels:
      '{category, select, reminders {Promemoria} booking_updates {Aggiornamenti sulle tue prenotazioni} announcements {Comunicazioni} other {Messaggi}} via {channels, select, sms {SMS} both {email e SMS} other {email}}.',
    summaryNone:
      '{category, select, reminders {Nessun promemoria.} booking_updates {Nessun aggiornamento sulle tue prenotazioni (tranne quelli essenziali, come l’annullamento di un evento).} announcements {Nessuna comunicazione.} other {Nessun messaggio.}}',
    summaryQuiet: 'Fascia di silenzio dalle {start} alle {end} ({zone}): promemoria, aggiornamenti e comunicazioni previsti in quella fascia aspettano che finisca, se possibile (un annullamento non aspetta).',
    summaryNoQuiet: 'Nessuna fascia di silenzio.',
    summaryNoPhone: 'Non è registrato nessun numero di cellulare, quindi non viene inviato nulla via SMS.',
    save: 'Salva le mie preferenze',
    saving: 'Salvataggio…',
    saved: 'Salvato. Le tue preferenze valgono da subito.',
    savedUnchanged: 'Salvato: non era cambiato nulla.',
    stale: 'Queste preferenze sono cambiate da quando hai aperto la pagina: ecco come sono adesso.',
    notSaved:
      'Non è stato salvato: controlla {field, select, reminders {i canali per i promemoria} booking_updates {i canali per gli aggiornamenti sulle tue prenotazioni} announcements {i canali per le comunicazioni} quietStart {l’inizio della tua fascia di silenzio (HH:MM)} quietEnd {la fine della tua fascia di silenzio (HH:MM)} quietHours {la tua fascia di silenzio (entrambi gli orari, diversi tra loro)} other {le tue scelte}} e riprova.',
    serverError: 'Qualcosa è andato storto da parte nostra. Riprova tra un momento.',
    offline: 'Impossibile raggiungere il server: controlla la connessione e riprova.',
    unsubscribeTitle: 'Disiscrizione: {what}',
    unsubscribeQuestion: '{hasName, select, yes {Vuoi disiscrivere {name} da: {what} di {tenantName}?} other {Vuoi disiscriverti da: {what} di {tenantName}?}}',
    unsubscribeEffect: 'Non riceverai più {what} da {tenantName}, né via email né via SMS.',
    unsubscribeButton: 'Disiscrivimi',
    unsubscribeOr: 'Oppure scegli su {link} quali messaggi ricevere, su quale canale e quando.',
    preferencesPageLink: 'la tua pagina delle preferenze',
    unsubscribedTitle: '{already, select, yes {Sei già disiscritto/a: {what}} other {Disiscrizione confermata: {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} non riceverà più {what} da {tenantName}.} other {Non riceverai più {what} da {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} non riceve {what} da {tenantName} dal {date}.} other {Non ricevi {what} da {tenantName} dal {date}.}}',
    changedMind: 'Hai cambiato idea o vuoi meno messaggi di un altro tipo? Scegli di nuovo su {link}.',
  },
};

export default it;
