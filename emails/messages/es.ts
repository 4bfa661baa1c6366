/**
 * Punctual's built-in Spanish text. Register: "tú" (as studios and shops in Spain write to customers; "plaza" for a
 * place at an event). The salutation ends in a colon, as Spanish letters do. Sentences avoid adjectives that would
 * have to agree with a reader's gender ("por invitación de", "participas").
 */
import type { Catalog } from './en';

const es: Catalog = {
  common: {
    greeting: 'Hola, {name}:',
    greetingNoName: 'Hola:',
    guestOf: 'Participas por invitación de {tenantName}.',
    when: 'Cuándo',
    where: 'Dónde',
    onlineRoom: 'Sala virtual',
    notes: 'Notas de la organización',
    eventNote: 'Ten en cuenta',
    eventNoteForHosts: 'Nota para quienes asisten',
    reason: 'Motivo',
    footer: 'Enviado por {tenantName} con Punctual porque participas en este evento.',
    preferences: 'Elige cómo quieres que {tenantName} se comunique contigo: {link}',
    unsubscribe:
      '{category, select, reminders {Dejar de recibir recordatorios} booking_updates {Dejar de recibir avisos sobre tus reservas} announcements {Dejar de recibir comunicados} other {Dejar de recibir estos mensajes}}',
    categoryLabel: '{category, select, reminders {Recordatorios} booking_updates {Avisos sobre tus reservas} announcements {Comunicados} other {Mensajes}}',
    allDay: 'todo el día',
    yourTime: 'tu hora',
    participants: '{count, plural, =0 {Todavía no hay reservas.} one {# persona ha reservado.} other {# personas han reservado.}}',
    smsTheirTime: '{when} ({time}, tu hora)',
    smsWhere: 'Dónde: {location}.',
    smsRoom: 'Sala virtual: {url}',
    smsReason: 'Motivo: {reason}.',
    smsManage: 'Preferencias: {url}',
  },
  account: {
    passwordResetSubject: 'Restablece tu contraseña de Punctual ({tenantName})',
    passwordResetIntro: 'Alguien (seguramente tú) ha pedido restablecer la contraseña de tu cuenta de Punctual en {tenantName}. Elige una contraseña nueva aquí:',
    passwordResetValidity: 'El enlace funciona una sola vez, hasta el {until}. Al poner una contraseña nueva, se cerrará tu sesión en todos los demás sitios.',
    passwordResetIgnore: 'Si no lo has pedido tú, ignora este correo: tu contraseña no cambia.',
    invitationSubject: 'Te han invitado a unirte a {tenantName} en Punctual',
    invitationIntro:
      '{invitedBy} te ha invitado a unirte a {tenantName} en Punctual {role, select, admin {con permisos de administración} staff {como parte del equipo} other {con acceso de solo lectura}}. Elige tu contraseña aquí para aceptar:',
    invitationValidity: 'El enlace funciona una sola vez, hasta el {until}.',
    invitationIgnore: 'Si no quieres unirte, ignora este correo: no pasará nada y la invitación caducará.',
    registeredIntro:
      '{invitedBy} te ha invitado a unirte a {tenantName} en Punctual. Tu dirección ya tiene una cuenta de Punctual en otra organización, y una dirección solo puede pertenecer a una organización, así que no puedes unirte a {tenantName} con ella.',
    registeredAdvice:
      'Si quieres unirte, pide a quien te invitó que invite otra dirección tuya. {tenantName} no sabe que tienes una cuenta en otro sitio: para ellos, la invitación sigue abierta hasta el {until} y después caduca.',
    registeredIgnore: 'Si no quieres unirte, ignora este correo.',
    senderSubject: 'Confirma {address} como dirección de envío de {tenantName}',
    senderHeading: 'Confirma que {tenantName} puede enviar sus recordatorios desde {address}',
    senderIntro:
      'Una persona con permisos de administración en {tenantName} ha puesto {address} como dirección de envío de la organización en Punctual. Hasta que se confirme, el correo sale desde la dirección propia de esta instalación de Punctual, con Reply-To {address}. Para confirmarla, alguien con permisos de administración en {tenantName} debe abrir este enlace con la sesión iniciada:',
    senderValidity: 'El enlace funciona una sola vez, hasta el {until}, y solo mientras {address} siga siendo la dirección de envío de la organización.',
    senderIgnore: 'Si no esperabas este mensaje, ignora este correo: no se enviará nada desde {address}.',
  },
  'attendee-reminder': {
    subject: 'Recordatorio: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Te recordamos que {eventTitle} es el {when}.} other {Te recordamos que {eventTitle} empieza el {when}.}}',
    closing: '¡Te esperamos!',
    note: '{eventNote}',
    sms: '{tenantName}: recordatorio - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'La sala virtual de {eventTitle} se abre a las {time}',
    intro: 'La sala virtual de {eventTitle} se abre a las {time}. A partir de entonces puedes entrar con el botón de abajo.',
    button: 'Entrar en la sala virtual',
    roomOpens: 'Apertura de la sala',
    event: 'Evento',
    roomLink: 'Enlace a la sala (si el botón no funciona)',
    note: '{eventNote}',
    sms: '{tenantName}: la sala virtual de {eventTitle} se abre a las {time}. Entrar: {url}',
  },
  'host-reminder': {
    subject: 'Diriges {eventTitle} \u2013 {when}',
    heading: 'Diriges {eventTitle}',
    intro: '{allDay, select, yes {Te recordamos que diriges {eventTitle} el {when}.} other {Te recordamos que diriges {eventTitle}, que empieza el {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: diriges {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Reserva confirmada: {eventTitle}',
    intro: '{allDay, select, yes {Tu plaza en {eventTitle} está confirmada. Es el {when}.} other {Tu plaza en {eventTitle} está confirmada. Empieza el {when}.}}',
    closing: 'Te adjuntamos el evento para que lo añadas a tu calendario.',
    note: '{eventNote}',
    sms: '{tenantName}: reserva confirmada - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Tu plaza en {eventTitle} se ha cancelado',
    intro: 'Tu plaza en {eventTitle} del {when} se ha cancelado.',
    calendar: 'Con la cancelación adjunta desaparece de tu calendario.',
    contact: 'Si no te lo esperabas, ponte en contacto con {tenantName}.',
    sms: '{tenantName}: tu plaza en {eventTitle} del {when} se ha cancelado.',
  },
  'event-rescheduled': {
    subject: 'Cambio de fecha: {eventTitle}',
    intro: '{eventTitle} cambia de fecha. Antes: {was} \u00b7 Ahora: {now}.',
    now: 'Nueva fecha',
    was: 'Fecha anterior',
    closing: 'El evento de tu calendario ya está actualizado.',
    sms: '{tenantName}: {eventTitle} cambia de fecha. Antes: {was}. Ahora: {now}.',
  },
  'event-cancelled': {
    subject: 'Cancelación: {eventTitle}',
    intro: '{allDay, select, yes {Se cancela {eventTitle}. Estaba previsto para el {when}.} other {Se cancela {eventTitle}. Iba a empezar el {when}.}}',
    wasPlannedFor: 'Estaba previsto para',
    closing: 'Tu plaza se cancela con él; no tienes que hacer nada. Con la cancelación adjunta desaparece de tu calendario.',
    sms: '{tenantName}: se cancela {eventTitle} del {when}.',
  },
  'host-added': {
    subject: 'Diriges {eventTitle}',
    intro:
      '{allDay, select, yes {Te han añadido como responsable de {eventTitle}, que es el {when}.} other {Te han añadido como responsable de {eventTitle}, que empieza el {when}.}}',
    sms: '{tenantName}: diriges {eventTitle}, {when}.',
  },
  pages: {
    preferencesTitle: 'Tus preferencias de mensajes',
    preferencesIntro: '{hasName, select, yes {{name}, elige cómo quieres que {tenantName} se comunique contigo sobre tus reservas.} other {Elige cómo quieres que {tenantName} se comunique contigo sobre tus reservas.}}',
    essentialNote: 'Los avisos de que un evento se cancela te llegan siempre.',
    categoryTitle:
      '{category, select, reminders {Recordatorios antes de tus eventos} booking_updates {Avisos sobre tus reservas} announcements {Comunicados del organizador sobre tus eventos} other {Mensajes}}',
    categoryName: '{category, select, reminders {recordatorios} booking_updates {avisos sobre tus reservas} announcements {comunicados} other {mensajes}}',
    channel: '{channel, select, sms {SMS} other {Correo electrónico}}',
    phoneOnFile: 'Los SMS van al número que tenemos tuyo: {phone}.',
    noPhone: 'No tenemos ningún móvil tuyo, así que no podemos enviarte nada por SMS; pide a {tenantName} que lo añada.',
    quietHours: 'Horas de silencio',
    quietFrom: 'Desde',
    quietTo: 'Hasta',
    quietHint:
      '{source, select, contact {Horas en {zone}, tu zona horaria.} other {Horas en {zone}, la zona horaria del organizador (no conocemos la tuya).}} Los recordatorios y avisos previstos en ese horario esperan a que termine, si aún tienen sentido. Deja ambos campos vacíos si no quieres horas de silencio.',
    inShort: 'En resumen',
    summaryChannels:
      '{category, select, reminders {Recordatorios} booking_updates {Avisos sobre tus reservas} announcements {Comunicados} other {Mensajes}} por {channels, select, sms {SMS} both {correo electrónico y SMS} other {correo electrónico}}.',
    summaryNone:
      '{category, select, reminders {Sin recordatorios.} booking_updates {Sin avisos sobre tus reservas (salvo los esenciales, como la cancelación de un evento).} announcements {Sin comunicados.} other {Sin mensajes.}}',
    summaryQuiet: 'Horas de silencio de {start} a {end} ({zone}): los recordatorios, avisos y comunicados previstos en ese horario esperan a que termine, si es posible (una cancelación no espera).',
    summaryNoQuiet: 'Sin horas de silencio.',
    summaryNoPhone: 'No hay ningún móvil registrado, así que no se envía nada por SMS.',
    save: 'Guardar mis preferencias',
    saving: 'Guardando…',
    saved: 'Guardado. Tus preferencias se aplican desde ahora.',
    savedUnchanged: 'Guardado: no había ningún cambio.',
    stale: 'Estas preferencias han cambiado desde que abriste esta página; así están ahora.',
    notSaved:
      'No se ha guardado: revisa {field, select, reminders {los canales de los recordatorios} booking_updates {los canales de los avisos sobre tus reservas} announcements {los canales de los comunicados} quietStart {el inicio de tus horas de silencio (HH:MM)} quietEnd {el final de tus horas de silencio (HH:MM)} quietHours {tus horas de silencio (las dos horas, distintas entre sí)} other {lo que has elegido}} y vuelve a intentarlo.',
    serverError: 'Algo ha fallado por nuestra parte. Vuelve a intentarlo en un momento.',
    offline: 'No se ha podido conectar con el servidor: revisa tu conexión y vuelve a intentarlo.',
    unsubscribeTitle: 'Darse de baja de {what}',
    unsubscribeQuestion: '{hasName, select, yes {¿Dar de baja a {name} de los {what} de {tenantName}?} other {¿Darte de baja de los {what} de {tenantName}?}}',
    unsubscribeEffect: 'Dejarás de recibir {what} de {tenantName}, por correo electrónico y por SMS.',
    unsubscribeButton: 'Darme de baja',
    unsubscribeOr: 'O elige en {link} qué mensajes recibes, por qué canal y cuándo.',
    preferencesPageLink: 'tu página de preferencias',
    unsubscribedTitle: '{already, select, yes {Ya te has dado de baja de {what}} other {Te has dado de baja de {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} dejará de recibir {what} de {tenantName}.} other {Dejarás de recibir {what} de {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} no recibe {what} de {tenantName} desde el {date}.} other {No recibes {what} de {tenantName} desde el {date}.}}',
    changedMind: '¿Has cambiado de idea o quieres menos mensajes de otro tipo? Vuelve a elegir en {link}.',
    problemExpiredTitle: 'Este enlace para darte de baja ha caducado',
    problemExpired: 'Dejó de funcionar el {date}. Para cambiar lo que recibes, usa el enlace a tus preferencias que aparece al final de un mensaje reciente del organizador.',
    problemInvalidTitle: 'Este enlace para darte de baja no funciona',
    problemInvalid: 'Puede que se haya cortado o modificado. Usa el enlace de tu mensaje más reciente o el enlace a tus preferencias que aparece al final.',
    problemGoneTitle: 'No hay nada que dar de baja',
    problemGone: 'Esta persona ya no figura en nuestros registros, así que no hay nada que dar de baja.',
    nothingChanged: 'No se ha cambiado nada.',
    linkBrokenTitle: 'Este enlace no funciona',
    linkBroken: 'No hemos encontrado las preferencias a las que lleva este enlace. Usa el enlace de tu mensaje más reciente y comprueba que lo has copiado entero.',
  },
};

export default es;
