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
};

export default pt;
