/**
 * Punctual's built-in French text. Register: "vous" (as French businesses write to customers). French spacing: a
 * no-break space (U+00A0) before ":", ";", "!" and "?"; typographic apostrophe (’). Sentences are written so that
 * no adjective has to agree with an event title's or a reader's gender ("n’aura pas lieu", "l’événement").
 */
import type { Catalog } from './en';

const fr: Catalog = {
  common: {
    greeting: 'Bonjour {name},',
    greetingNoName: 'Bonjour,',
    guestOf: 'Vous participez sur invitation de {tenantName}.',
    when: 'Quand',
    where: 'Où',
    onlineRoom: 'Salle en ligne',
    notes: 'Informations de l’organisateur',
    eventNote: 'À noter',
    eventNoteForHosts: 'Note pour les participants',
    reason: 'Motif',
    footer: 'Envoyé par {tenantName} avec Punctual, car vous participez à cet événement.',
    preferences: 'Choisissez comment {tenantName} vous contacte\u00a0: {link}',
    unsubscribe:
      '{category, select, reminders {Ne plus recevoir les rappels} booking_updates {Ne plus recevoir les informations sur vos réservations} announcements {Ne plus recevoir les annonces} other {Ne plus recevoir ces messages}}',
    categoryLabel: '{category, select, reminders {Rappels} booking_updates {Informations sur vos réservations} announcements {Annonces} other {Messages}}',
    allDay: 'toute la journée',
    yourTime: 'chez vous',
    participants: '{count, plural, =0 {Personne n’a encore réservé.} one {# personne a réservé.} other {# personnes ont réservé.}}',
    smsTheirTime: '{when} ({time} chez vous)',
    smsWhere: 'Lieu\u00a0: {location}.',
    smsRoom: 'Salle en ligne\u00a0: {url}',
    smsReason: 'Motif\u00a0: {reason}.',
    smsManage: 'Préférences\u00a0: {url}',
  },
  account: {
    passwordResetSubject: 'Réinitialiser votre mot de passe Punctual ({tenantName})',
    passwordResetIntro:
      'Quelqu’un \u2013 probablement vous \u2013 a demandé la réinitialisation du mot de passe de votre compte Punctual chez {tenantName}. Choisissez un nouveau mot de passe ici\u00a0:',
    passwordResetValidity: 'Le lien ne fonctionne qu’une fois, jusqu’à son expiration le {until}. Un nouveau mot de passe vous déconnecte partout ailleurs.',
    passwordResetIgnore: 'Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail\u00a0: votre mot de passe reste inchangé.',
    invitationSubject: 'Invitation à rejoindre {tenantName} sur Punctual',
    invitationIntro:
      '{invitedBy} vous invite à rejoindre {tenantName} sur Punctual {role, select, admin {avec les droits d’administration} staff {en tant que membre de l’équipe} other {en lecture seule}}. Choisissez votre mot de passe ici pour accepter\u00a0:',
    invitationValidity: 'Le lien ne fonctionne qu’une fois, jusqu’à son expiration le {until}.',
    invitationIgnore: 'Si vous ne souhaitez pas donner suite, ignorez cet e-mail\u00a0: rien ne se passera et l’invitation expirera.',
    registeredIntro:
      '{invitedBy} vous invite à rejoindre {tenantName} sur Punctual. Votre adresse a déjà un compte Punctual dans une autre organisation, et une adresse ne peut appartenir qu’à une seule organisation\u00a0: vous ne pouvez donc pas rejoindre {tenantName} avec celle-ci.',
    registeredAdvice:
      'Pour la rejoindre malgré tout, demandez à l’auteur de l’invitation d’inviter une autre de vos adresses. {tenantName} ne sait pas que vous avez un compte ailleurs\u00a0: de son côté, l’invitation reste ouverte jusqu’à son expiration le {until}.',
    registeredIgnore: 'Si vous ne souhaitez pas donner suite, ignorez cet e-mail.',
    senderSubject: 'Confirmez {address} comme adresse d’expédition de {tenantName}',
    senderHeading: 'Confirmez que {tenantName} peut envoyer ses rappels depuis {address}',
    senderIntro:
      'Une personne chargée de l’administration de {tenantName} a défini {address} comme adresse d’expédition de l’organisation sur Punctual. Tant qu’elle n’est pas confirmée, les e-mails partent de l’adresse propre à cette installation de Punctual, avec Reply-To {address}. Pour confirmer, une personne chargée de l’administration de {tenantName} ouvre ce lien en étant connectée\u00a0:',
    senderValidity: 'Le lien ne fonctionne qu’une fois, jusqu’à son expiration le {until}, et seulement tant que {address} reste l’adresse d’expédition de l’organisation.',
    senderIgnore: 'Si vous ne vous attendiez pas à ce message, ignorez cet e-mail\u00a0: rien ne sera envoyé depuis {address}.',
  },
  'attendee-reminder': {
    subject: 'Rappel\u00a0: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Petit rappel\u00a0: {eventTitle} a lieu le {when}.} other {Petit rappel\u00a0: {eventTitle} commence le {when}.}}',
    closing: 'Au plaisir de vous voir\u00a0!',
    note: '{eventNote}',
    sms: '{tenantName}\u00a0: rappel - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'La salle en ligne de {eventTitle} ouvre à {time}',
    intro: 'La salle en ligne de {eventTitle} ouvre à {time}. Dès cette heure, vous pourrez la rejoindre avec le bouton ci-dessous.',
    button: 'Rejoindre la salle en ligne',
    roomOpens: 'Ouverture de la salle',
    event: 'Événement',
    roomLink: 'Lien vers la salle (si le bouton ne fonctionne pas)',
    note: '{eventNote}',
    sms: '{tenantName}\u00a0: la salle en ligne de {eventTitle} ouvre à {time}. Rejoindre\u00a0: {url}',
  },
  'host-reminder': {
    subject: 'Vous animez {eventTitle} \u2013 {when}',
    heading: 'Vous animez {eventTitle}',
    intro:
      '{allDay, select, yes {Petit rappel\u00a0: vous animez {eventTitle} le {when}.} other {Petit rappel\u00a0: vous animez {eventTitle}, qui commence le {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}\u00a0: vous animez {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Réservation confirmée\u00a0: {eventTitle}',
    intro:
      '{allDay, select, yes {Votre place pour {eventTitle} est confirmée. L’événement a lieu le {when}.} other {Votre place pour {eventTitle} est confirmée. Rendez-vous le {when}.}}',
    closing: 'Vous trouverez l’invitation pour votre agenda en pièce jointe.',
    note: '{eventNote}',
    sms: '{tenantName}\u00a0: réservation confirmée - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Votre place pour {eventTitle} a été annulée',
    intro: 'Votre place pour {eventTitle} du {when} a été annulée.',
    calendar: 'L’annulation jointe retire l’événement de votre agenda.',
    contact: 'Si vous ne vous y attendiez pas, contactez {tenantName}.',
    sms: '{tenantName}\u00a0: votre place pour {eventTitle} du {when} a été annulée.',
  },
  'event-rescheduled': {
    subject: 'Changement d’horaire\u00a0: {eventTitle}',
    intro: 'L’horaire de {eventTitle} a changé. Avant\u00a0: {was} \u00b7 Désormais\u00a0: {now}.',
    now: 'Nouvel horaire',
    was: 'Ancien horaire',
    closing: 'L’événement est mis à jour dans votre agenda.',
    sms: '{tenantName}\u00a0: nouvel horaire pour {eventTitle}. Avant\u00a0: {was}. Désormais\u00a0: {now}.',
  },
  'event-cancelled': {
    subject: 'Annulation\u00a0: {eventTitle}',
    intro:
      '{allDay, select, yes {{eventTitle} n’aura pas lieu. L’événement était prévu le {when}.} other {{eventTitle} n’aura pas lieu. L’événement devait commencer le {when}.}}',
    wasPlannedFor: 'Prévu le',
    closing: 'Votre place est annulée avec l’événement\u00a0; vous n’avez rien à faire. L’annulation jointe le retire de votre agenda.',
    sms: '{tenantName}\u00a0: {eventTitle} du {when} n’aura pas lieu.',
  },
  'host-added': {
    subject: 'Vous animez {eventTitle}',
    intro:
      '{allDay, select, yes {Vous faites désormais partie de l’équipe d’animation de {eventTitle}. L’événement a lieu le {when}.} other {Vous faites désormais partie de l’équipe d’animation de {eventTitle}. L’événement commence le {when}.}}',
    sms: '{tenantName}\u00a0: vous animez {eventTitle}, {when}.',
  },
  pages: {
    preferencesTitle: 'Vos préférences de messages',
    preferencesIntro: '{hasName, select, yes {{name}, choisissez comment {tenantName} vous contacte au sujet de vos réservations.} other {Choisissez comment {tenantName} vous contacte au sujet de vos réservations.}}',
    essentialNote: 'Les messages annonçant l’annulation d’un événement vous parviennent toujours.',
    categoryTitle:
      '{category, select, reminders {Rappels avant vos événements} booking_updates {Nouvelles de vos réservations} announcements {Annonces de l’organisateur sur vos événements} other {Messages}}',
    categoryName: '{category, select, reminders {rappels} booking_updates {nouvelles de vos réservations} announcements {annonces} other {messages}}',
    channel: '{channel, select, sms {SMS} other {E-mail}}',
    phoneOnFile: 'Les SMS sont envoyés au numéro que nous avons pour vous\u00a0: {phone}.',
    noPhone: 'Nous n’avons pas de numéro de mobile pour vous, aucun SMS ne peut donc vous être envoyé\u00a0; demandez à {tenantName} de l’ajouter.',
    quietHours: 'Heures calmes',
    quietFrom: 'De',
    quietTo: 'À',
    quietHint:
      '{source, select, contact {Heures exprimées dans le fuseau {zone}, le vôtre.} other {Heures exprimées dans le fuseau {zone}, celui de l’organisateur (nous ne connaissons pas le vôtre).}} Les rappels et nouvelles prévus pendant ces heures attendent leur fin, s’ils sont encore utiles. Laissez les deux champs vides pour ne pas en avoir.',
    inShort: 'En résumé',
    summaryChannels:
      '{category, select, reminders {Rappels} booking_updates {Nouvelles de vos réservations} announcements {Annonces} other {Messages}} par {channels, select, sms {SMS} both {e-mail et SMS} other {e-mail}}.',
    summaryNone:
      '{category, select, reminders {Aucun rappel.} booking_updates {Aucune nouvelle de vos réservations (sauf les messages essentiels, comme l’annulation d’un événement).} announcements {Aucune annonce.} other {Aucun message.}}',
    summaryQuiet: 'Heures calmes de {start} à {end} ({zone})\u00a0: les rappels, nouvelles et annonces prévus pendant ces heures attendent leur fin, si possible (une annulation n’attend pas).',
    summaryNoQuiet: 'Pas d’heures calmes.',
    summaryNoPhone: 'Aucun numéro de mobile n’est enregistré, donc rien n’est envoyé par SMS.',
    save: 'Enregistrer mes préférences',
    saving: 'Enregistrement…',
    saved: 'Enregistré. Vos préférences s’appliquent dès maintenant.',
    savedUnchanged: 'Enregistré — rien n’avait changé.',
    stale: 'Ces préférences ont été modifiées depuis que vous avez ouvert cette page — les voici telles qu’elles sont maintenant.',
    notSaved:
      'Rien n’a été enregistré\u00a0: vérifiez {field, select, reminders {les canaux des rappels} booking_updates {les canaux des nouvelles de vos réservations} announcements {les canaux des annonces} quietStart {le début de vos heures calmes (HH:MM)} quietEnd {la fin de vos heures calmes (HH:MM)} quietHours {vos heures calmes (deux heures différentes)} other {vos choix}} et réessayez.',
    serverError: 'Un problème est survenu de notre côté. Veuillez réessayer dans un instant.',
    offline: 'Impossible de joindre le serveur — vérifiez votre connexion et réessayez.',
    unsubscribeTitle: 'Désabonnement des {what}',
    unsubscribeQuestion: '{hasName, select, yes {Désabonner {name} des {what} de {tenantName}\u00a0?} other {Vous désabonner des {what} de {tenantName}\u00a0?}}',
    unsubscribeEffect: 'Vous ne recevrez plus de {what} de {tenantName}, ni par e-mail ni par SMS.',
    unsubscribeButton: 'Me désabonner',
    unsubscribeOr: 'Ou choisissez sur {link} quels messages vous recevez, par quel canal et quand.',
    preferencesPageLink: 'votre page de préférences',
    unsubscribedTitle: '{already, select, yes {Vous êtes déjà désabonné(e) des {what}} other {Vous êtes désabonné(e) des {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} ne recevra plus de {what} de {tenantName}.} other {Vous ne recevrez plus de {what} de {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} ne reçoit plus de {what} de {tenantName} depuis le {date}.} other {Vous ne recevez plus de {what} de {tenantName} depuis le {date}.}}',
    changedMind: 'Vous avez changé d’avis, ou souhaitez moins de messages d’un autre type\u00a0? Faites un nouveau choix sur {link}.',
    problemExpiredTitle: 'Ce lien de désabonnement a expiré',
    problemExpired: 'Il ne fonctionne plus depuis le {date}. Pour changer ce que vous recevez, utilisez le lien vers vos préférences à la fin d’un message récent de l’organisateur.',
    problemInvalidTitle: 'Ce lien de désabonnement ne fonctionne pas',
    problemInvalid: 'Il a peut-être été coupé ou modifié. Utilisez le lien de votre message le plus récent, ou le lien vers vos préférences à la fin de celui-ci.',
    problemGoneTitle: 'Rien à désabonner',
    problemGone: 'Cette personne n’est plus enregistrée\u00a0: il n’y a rien à désabonner.',
    nothingChanged: 'Rien n’a été modifié.',
    linkBrokenTitle: 'Ce lien ne fonctionne pas',
    linkBroken: 'Nous n’avons pas trouvé les préférences vers lesquelles pointe ce lien. Utilisez le lien de votre message le plus récent et vérifiez qu’il a été copié en entier.',
  },
};

export default fr;
