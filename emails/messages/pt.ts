/**
 * Punctual's built-in Portuguese text, written in Brazilian Portuguese (CLDR's "pt"). Register: "você" (as Brazilian
 * businesses write to customers). Sentences avoid participles that would have to agree with a reader's gender
 * ("a convite de", "você agora faz parte").
 */
import type { Catalog } from './en';

const pt: Catalog = {
  common: {
    greeting: 'Olá, {name}!',
    greetingNoName: 'Olá!',
    guestOf: 'Você participa a convite de {tenantName}.',
    when: 'Quando',
    where: 'Onde',
    onlineRoom: 'Sala online',
    notes: 'Observações da organização',
    eventNote: 'Importante',
    eventNoteForHosts: 'Recado para quem participa',
    reason: 'Motivo',
    footer: 'Enviado por {tenantName} com o Punctual porque você participa deste evento.',
    preferences: 'Escolha como {tenantName} entra em contato com você: {link}',
    unsubscribe:
      '{category, select, reminders {Não receber mais lembretes} booking_updates {Não receber mais avisos sobre inscrições} announcements {Não receber mais comunicados} other {Não receber mais estas mensagens}}',
    categoryLabel: '{category, select, reminders {Lembretes} booking_updates {Avisos sobre inscrições} announcements {Comunicados} other {Mensagens}}',
    allDay: 'dia inteiro',
    yourTime: 'no seu horário',
    participants: '{count, plural, =0 {Ninguém se inscreveu ainda.} one {# pessoa se inscreveu.} other {# pessoas se inscreveram.}}',
    smsTheirTime: '{when} ({time} no seu horário)',
    smsWhere: 'Onde: {location}.',
    smsRoom: 'Sala online: {url}',
    smsReason: 'Motivo: {reason}.',
    smsManage: 'Preferências: {url}',
  },
  account: {
    passwordResetSubject: 'Redefina sua senha do Punctual ({tenantName})',
    passwordResetIntro: 'Alguém (provavelmente você) pediu para redefinir a senha da sua conta do Punctual em {tenantName}. Escolha uma nova senha aqui:',
    passwordResetValidity: 'O link funciona uma única vez, até {until}. Ao definir uma nova senha, você sai da conta em todos os outros lugares.',
    passwordResetIgnore: 'Se não foi você que pediu, ignore este e-mail: sua senha continua a mesma.',
    invitationSubject: 'Convite para entrar em {tenantName} no Punctual',
    invitationIntro:
      '{invitedBy} convidou você para entrar em {tenantName} no Punctual {role, select, admin {com acesso de administração} staff {como membro da equipe} other {com acesso somente leitura}}. Escolha sua senha aqui para aceitar:',
    invitationValidity: 'O link funciona uma única vez, até {until}.',
    invitationIgnore: 'Se não quiser entrar, ignore este e-mail: nada acontece e o convite expira.',
    registeredIntro:
      '{invitedBy} convidou você para entrar em {tenantName} no Punctual. Seu endereço já tem uma conta do Punctual em outra organização, e um endereço só pode pertencer a uma organização, então não é possível entrar em {tenantName} com ele.',
    registeredAdvice:
      'Se quiser entrar, peça a quem enviou o convite que convide outro endereço seu. {tenantName} não foi avisado de que você tem uma conta em outro lugar: para eles, o convite continua aberto até {until} e depois expira.',
    registeredIgnore: 'Se não quiser entrar, ignore este e-mail.',
    senderSubject: 'Confirme {address} como endereço de envio de {tenantName}',
    senderHeading: 'Confirme que {tenantName} pode enviar lembretes a partir de {address}',
    senderIntro:
      'Uma pessoa com acesso de administração em {tenantName} definiu {address} como endereço de envio da organização no Punctual. Até a confirmação, os e-mails saem do endereço desta instalação do Punctual, com Reply-To {address}. Para confirmar, uma pessoa com acesso de administração em {tenantName} abre este link com a sessão iniciada:',
    senderValidity: 'O link funciona uma única vez, até {until}, e só enquanto {address} continuar sendo o endereço de envio da organização.',
    senderIgnore: 'Se você não esperava por isso, ignore este e-mail: nada será enviado a partir de {address}.',
  },
  'attendee-reminder': {
    subject: 'Lembrete: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {Lembrete: {eventTitle} acontece em {when}.} other {Lembrete: {eventTitle} começa em {when}.}}',
    closing: 'Esperamos por você!',
    note: '{eventNote}',
    sms: '{tenantName}: lembrete - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'A sala online de {eventTitle} abre às {time}',
    intro: 'A sala online de {eventTitle} abre às {time}. A partir desse horário, você pode entrar pelo botão abaixo.',
    button: 'Entrar na sala online',
    roomOpens: 'Abertura da sala',
    event: 'Evento',
    roomLink: 'Link da sala (se o botão não funcionar)',
    note: '{eventNote}',
    sms: '{tenantName}: a sala online de {eventTitle} abre às {time}. Entrar: {url}',
  },
  'host-reminder': {
    subject: 'Você conduz {eventTitle} \u2013 {when}',
    heading: 'Você conduz {eventTitle}',
    intro: '{allDay, select, yes {Lembrete: você conduz {eventTitle} em {when}.} other {Lembrete: você conduz {eventTitle}, que começa em {when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: você conduz {eventTitle}, {when}.',
  },
  'booking-confirmed': {
    subject: 'Inscrição confirmada: {eventTitle}',
    intro:
      '{allDay, select, yes {Sua vaga em {eventTitle} está confirmada. O evento acontece em {when}.} other {Sua vaga em {eventTitle} está confirmada. Começa em {when}.}}',
    closing: 'O convite para a sua agenda está em anexo.',
    note: '{eventNote}',
    sms: '{tenantName}: inscrição confirmada - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'Sua vaga em {eventTitle} foi cancelada',
    intro: 'Sua vaga em {eventTitle}, {when}, foi cancelada.',
    calendar: 'O cancelamento em anexo tira o evento da sua agenda.',
    contact: 'Se você não esperava por isso, entre em contato com {tenantName}.',
    sms: '{tenantName}: sua vaga em {eventTitle}, {when}, foi cancelada.',
  },
  'event-rescheduled': {
    subject: 'Novo horário: {eventTitle}',
    intro: '{eventTitle} mudou de horário. Antes: {was} \u00b7 Agora: {now}.',
    now: 'Novo horário',
    was: 'Horário anterior',
    closing: 'O evento na sua agenda foi atualizado.',
    sms: '{tenantName}: {eventTitle} mudou de horário. Antes: {was}. Agora: {now}.',
  },
  'event-cancelled': {
    subject: 'Cancelamento: {eventTitle}',
    intro:
      '{allDay, select, yes {{eventTitle} não vai mais acontecer. Estava marcado para {when}.} other {{eventTitle} não vai mais acontecer. Começaria em {when}.}}',
    wasPlannedFor: 'Estava marcado para',
    closing: 'Sua vaga foi cancelada junto; você não precisa fazer nada. O cancelamento em anexo tira o evento da sua agenda.',
    sms: '{tenantName}: {eventTitle}, {when}, não vai mais acontecer.',
  },
  'host-added': {
    subject: 'Você conduz {eventTitle}',
    intro:
      '{allDay, select, yes {Você agora faz parte da equipe que conduz {eventTitle}, que acontece em {when}.} other {Você agora faz parte da equipe que conduz {eventTitle}, que começa em {when}.}}',
    sms: '{tenantName}: você conduz {eventTitle}, {when}.',
  },
  pages: {
    preferencesTitle: 'Suas preferências de mensagens',
    preferencesIntro: '{hasName, select, yes {{name}, escolha como {tenantName} entra em contato com você sobre suas reservas.} other {Escolha como {tenantName} entra em contato com você sobre suas reservas.}}',
    essentialNote: 'Avisos de que um evento foi cancelado sempre chegam até você.',
    categoryTitle:
      '{category, select, reminders {Lembretes antes dos seus eventos} booking_updates {Atualizações sobre suas reservas} announcements {Comunicados do organizador sobre seus eventos} other {Mensagens}}',
    categoryName: '{category, select, reminders {lembretes} booking_updates {atualizações sobre suas reservas} announcements {comunicados} other {mensagens}}',
    channel: '{channel, select, sms {SMS} other {E-mail}}',
    phoneOnFile: 'Os SMS vão para o número que temos de você: {phone}.',
    noPhone: 'Não temos um número de celular seu, então nada pode ser enviado por SMS; peça a {tenantName} para incluí-lo.',
    quietHours: 'Horário de silêncio',
    quietFrom: 'De',
    quietTo: 'Até',
    quietHint:
      '{source, select, contact {Horários no fuso {zone}, o seu.} other {Horários no fuso {zone}, o do organizador (não sabemos o seu).}} Lembretes e atualizações previstos nesse horário esperam até ele terminar, se ainda fizerem sentido. Deixe os dois campos vazios se não quiser horário de silêncio.',
    inShort: 'Em resumo',
    summaryChannels:
      '{category, select, reminders {Lembretes} booking_updates {Atualizações sobre suas reservas} announcements {Comunicados} other {Mensagens}} por {channels, select, sms {SMS} both {e-mail e SMS} other {e-mail}}.',
    summaryNone:
      '{category, select, reminders {Nenhum lembrete.} booking_updates {Nenhuma atualização sobre suas reservas (exceto as essenciais, como o cancelamento de um evento).} announcements {Nenhum comunicado.} other {Nenhuma mensagem.}}',
    summaryQuiet: 'Horário de silêncio das {start} às {end} ({zone}): lembretes, atualizações e comunicados previstos nesse horário esperam até ele terminar, se possível (um cancelamento não espera).',
    summaryNoQuiet: 'Sem horário de silêncio.',
    summaryNoPhone: 'Não há número de celular cadastrado, então nada é enviado por SMS.',
    save: 'Salvar minhas preferências',
    saving: 'Salvando…',
    saved: 'Salvo. Suas preferências valem a partir de agora.',
    savedUnchanged: 'Salvo — nada tinha mudado.',
    stale: 'Estas preferências foram alteradas depois que você abriu esta página — veja como estão agora.',
    notSaved:
      'Não foi salvo: confira {field, select, reminders {os canais dos lembretes} booking_updates {os canais das atualizações sobre suas reservas} announcements {os canais dos comunicados} quietStart {o início do seu horário de silêncio (HH:MM)} quietEnd {o fim do seu horário de silêncio (HH:MM)} quietHours {seu horário de silêncio (os dois horários, diferentes entre si)} other {suas escolhas}} e tente de novo.',
    serverError: 'Algo deu errado do nosso lado. Tente de novo em instantes.',
    offline: 'Não foi possível acessar o servidor — confira sua conexão e tente de novo.',
    unsubscribeTitle: 'Cancelar inscrição: {what}',
    unsubscribeQuestion: '{hasName, select, yes {Cancelar a inscrição de {name} em {what} de {tenantName}?} other {Cancelar sua inscrição em {what} de {tenantName}?}}',
    unsubscribeEffect: 'Você não vai mais receber {what} de {tenantName}, nem por e-mail nem por SMS.',
    unsubscribeButton: 'Cancelar inscrição',
    unsubscribeOr: 'Ou escolha em {link} quais mensagens você recebe, por qual canal e quando.',
    preferencesPageLink: 'sua página de preferências',
    unsubscribedTitle: '{already, select, yes {Sua inscrição em {what} já estava cancelada} other {Inscrição em {what} cancelada}}',
    unsubscribedBody: '{hasName, select, yes {{name} não vai mais receber {what} de {tenantName}.} other {Você não vai mais receber {what} de {tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} não recebe {what} de {tenantName} desde {date}.} other {Você não recebe {what} de {tenantName} desde {date}.}}',
    changedMind: 'Mudou de ideia ou quer menos mensagens de outro tipo? Escolha de novo em {link}.',
    problemExpiredTitle: 'Este link para cancelar a inscrição expirou',
    problemExpired: 'Ele deixou de funcionar em {date}. Para mudar o que você recebe, use o link das suas preferências no fim de uma mensagem recente do organizador.',
    problemInvalidTitle: 'Este link para cancelar a inscrição não funciona',
    problemInvalid: 'Talvez ele tenha sido cortado ou alterado. Use o link da sua mensagem mais recente ou o link das suas preferências no fim dela.',
    problemGoneTitle: 'Nada para cancelar',
    problemGone: 'Esta pessoa não está mais cadastrada, então não há nada para cancelar.',
    nothingChanged: 'Nada foi alterado.',
    linkBrokenTitle: 'Este link não funciona',
    linkBroken: 'Não encontramos as preferências para as quais este link aponta. Use o link da sua mensagem mais recente e confira se ele foi copiado por inteiro.',
  },
};

export default pt;
