/**
 * Punctual's built-in Hebrew text (right to left). Register: polite and direct, and gender-neutral as Hebrew
 * customer messages are written when the reader's gender is unknown: second-person forms that are spelt alike for
 * both genders without vowel points ("שלך", "ציפית", "נוספת", "בהנחייתך"), nouns and infinitives instead of
 * gendered verbs ("אפשר להצטרף", "הסרה"), and verbs that agree with "האירוע" rather than with a typed title.
 * A prefix before a placeholder is joined with a maqaf ("ב־{when}"), as before a number or a Latin-script name.
 */
import type { Catalog } from './en';

const he: Catalog = {
  common: {
    greeting: 'שלום {name},',
    greetingNoName: 'שלום,',
    guestOf: 'ההשתתפות שלך היא בהזמנת {tenantName}.',
    when: 'מתי',
    where: 'מיקום',
    onlineRoom: 'חדר מקוון',
    notes: 'הערות מהמארגנים',
    eventNote: 'לתשומת הלב',
    eventNoteForHosts: 'הערה למשתתפים',
    reason: 'סיבה',
    footer: 'נשלח על ידי {tenantName} באמצעות Punctual בעקבות ההשתתפות שלך באירוע הזה.',
    preferences: 'לבחירת הדרכים שבהן {tenantName} יוצרים איתך קשר: {link}',
    unsubscribe: '{category, select, reminders {הסרה מקבלת תזכורות} booking_updates {הסרה מקבלת עדכונים על הרשמות} announcements {הסרה מקבלת הודעות מהמארגנים} other {הסרה מקבלת ההודעות האלה}}',
    categoryLabel: '{category, select, reminders {תזכורות} booking_updates {עדכונים על הרשמות} announcements {הודעות מהמארגנים} other {הודעות}}',
    allDay: 'כל היום',
    yourTime: 'לפי השעון שלך',
    participants: '{count, plural, =0 {עדיין אין הרשמות.} one {יש הרשמה אחת.} two {יש שתי הרשמות.} other {יש # הרשמות.}}',
    smsTheirTime: '{when} ({time} לפי השעון שלך)',
    smsWhere: 'מיקום: {location}.',
    smsRoom: 'חדר מקוון: {url}',
    smsReason: 'סיבה: {reason}.',
    smsManage: 'העדפות: {url}',
  },
  account: {
    passwordResetSubject: 'איפוס הסיסמה ל־Punctual ({tenantName})',
    passwordResetIntro: 'התקבלה בקשה לאפס את הסיסמה של חשבון ה־Punctual שלך ב־{tenantName}. אפשר לבחור סיסמה חדשה כאן:',
    passwordResetValidity: 'הקישור פועל פעם אחת בלבד, עד {until}. בחירת סיסמה חדשה מנתקת את החשבון בכל שאר המכשירים.',
    passwordResetIgnore: 'אם הבקשה לא הגיעה ממך, אפשר להתעלם מהמייל הזה: הסיסמה נשארת כפי שהיא.',
    invitationSubject: 'הזמנה להצטרף ל־{tenantName} ב־Punctual',
    invitationIntro:
      'זוהי הזמנה מ־{invitedBy} להצטרף ל־{tenantName} ב־Punctual {role, select, admin {עם הרשאות ניהול} staff {כחלק מהצוות} other {עם הרשאת צפייה בלבד}}. לאישור ההזמנה אפשר לבחור סיסמה כאן:',
    invitationValidity: 'הקישור פועל פעם אחת בלבד, עד {until}.',
    invitationIgnore: 'אם אין לך עניין להצטרף, אפשר להתעלם מהמייל הזה: שום דבר לא קורה, ותוקף ההזמנה פשוט יפוג.',
    registeredIntro:
      'זוהי הזמנה מ־{invitedBy} להצטרף ל־{tenantName} ב־Punctual. לכתובת שלך כבר יש חשבון Punctual בארגון אחר, וכל כתובת יכולה להשתייך לארגון אחד בלבד, ולכן אי אפשר להצטרף ל־{tenantName} עם הכתובת הזאת.',
    registeredAdvice:
      'כדי להצטרף, אפשר לבקש ממי ששלח את ההזמנה להזמין כתובת אחרת שלך. ב־{tenantName} לא יודעים שיש לך חשבון במקום אחר: מבחינתם ההזמנה נשארת פתוחה עד {until}, ואז תוקפה פג.',
    registeredIgnore: 'אם אין לך עניין להצטרף, אפשר להתעלם מהמייל הזה.',
    senderSubject: 'אישור {address} ככתובת השולח של {tenantName}',
    senderHeading: 'אישור שליחת תזכורות של {tenantName} מהכתובת {address}',
    senderIntro:
      'הכתובת {address} הוגדרה ב־Punctual ככתובת השולח של {tenantName}, בידי בעלי הרשאות ניהול בארגון. עד לאישור, הדואר יוצא מהכתובת של התקנת Punctual הזאת, עם Reply-To {address}. לאישור יש לפתוח את הקישור הזה מחשבון מחובר עם הרשאות ניהול ב־{tenantName}:',
    senderValidity: 'הקישור פועל פעם אחת בלבד, עד {until}, ורק כל עוד {address} היא כתובת השולח של הארגון.',
    senderIgnore: 'אם לא ציפית להודעה הזאת, אפשר להתעלם ממנה: שום דבר לא יישלח מ־{address}.',
  },
  'attendee-reminder': {
    subject: 'תזכורת: {eventTitle} \u2013 {when}',
    intro: '{allDay, select, yes {תזכורת: האירוע {eventTitle} מתקיים ב־{when}.} other {תזכורת: האירוע {eventTitle} מתחיל ב־{when}.}}',
    closing: 'נשמח לראותך!',
    note: '{eventNote}',
    sms: '{tenantName}: תזכורת - {eventTitle}, {when}.',
  },
  'room-opening': {
    subject: 'החדר המקוון של {eventTitle} נפתח ב־{time}',
    intro: 'החדר המקוון של {eventTitle} נפתח ב־{time}. מרגע זה אפשר להצטרף בלחיצה על הכפתור למטה.',
    button: 'כניסה לחדר המקוון',
    roomOpens: 'פתיחת החדר',
    event: 'האירוע',
    roomLink: 'קישור לחדר (אם הכפתור לא עובד)',
    note: '{eventNote}',
    sms: '{tenantName}: החדר המקוון של {eventTitle} נפתח ב־{time}. להצטרפות: {url}',
  },
  'host-reminder': {
    subject: '{eventTitle} בהנחייתך \u2013 {when}',
    heading: '{eventTitle} בהנחייתך',
    intro: '{allDay, select, yes {תזכורת: {eventTitle} בהנחייתך ב־{when}.} other {תזכורת: {eventTitle} בהנחייתך. האירוע מתחיל ב־{when}.}}',
    note: '{eventNote}',
    sms: '{tenantName}: {eventTitle} בהנחייתך, {when}.',
  },
  'booking-confirmed': {
    subject: 'ההרשמה אושרה: {eventTitle}',
    intro: '{allDay, select, yes {המקום שלך ב־{eventTitle} אושר. האירוע מתקיים ב־{when}.} other {המקום שלך ב־{eventTitle} אושר. האירוע מתחיל ב־{when}.}}',
    closing: 'מצורפת הזמנה ליומן.',
    note: '{eventNote}',
    sms: '{tenantName}: ההרשמה אושרה - {eventTitle}, {when}.',
  },
  'booking-cancelled': {
    subject: 'המקום שלך ב־{eventTitle} בוטל',
    intro: 'המקום שלך ב־{eventTitle}, {when}, בוטל.',
    calendar: 'הביטול המצורף יסיר את האירוע מהיומן שלך.',
    contact: 'אם לא ציפית לזה, אפשר לפנות אל {tenantName}.',
    sms: '{tenantName}: המקום שלך ב־{eventTitle}, {when}, בוטל.',
  },
  'event-rescheduled': {
    subject: 'שינוי מועד: {eventTitle}',
    intro: 'המועד של {eventTitle} השתנה. קודם: {was} \u00b7 עכשיו: {now}.',
    now: 'המועד החדש',
    was: 'המועד הקודם',
    closing: 'האירוע ביומן עודכן.',
    sms: '{tenantName}: המועד של {eventTitle} השתנה. קודם: {was}. עכשיו: {now}.',
  },
  'event-cancelled': {
    subject: 'ביטול: {eventTitle}',
    intro:
      '{allDay, select, yes {האירוע {eventTitle} בוטל. הוא היה אמור להתקיים ב־{when}.} other {האירוע {eventTitle} בוטל. הוא היה אמור להתחיל ב־{when}.}}',
    wasPlannedFor: 'המועד המתוכנן',
    closing: 'גם המקום שלך בוטל, ואין צורך לעשות דבר. הביטול המצורף יסיר את האירוע מהיומן שלך.',
    sms: '{tenantName}: האירוע {eventTitle}, {when}, בוטל.',
  },
  'host-added': {
    subject: '{eventTitle} בהנחייתך',
    intro: '{allDay, select, yes {נוספת כמנחה של {eventTitle}. האירוע מתקיים ב־{when}.} other {נוספת כמנחה של {eventTitle}. האירוע מתחיל ב־{when}.}}',
    sms: '{tenantName}: {eventTitle} בהנחייתך, {when}.',
  },
  pages: {
    preferencesTitle: 'העדפות ההודעות שלך',
    preferencesIntro: '{hasName, select, yes {{name}, כאן בוחרים איך {tenantName} יוצרים איתך קשר לגבי ההרשמות שלך.} other {כאן בוחרים איך {tenantName} יוצרים איתך קשר לגבי ההרשמות שלך.}}',
    essentialNote: 'הודעות על ביטול אירוע יגיעו אליך תמיד.',
    categoryTitle:
      '{category, select, reminders {תזכורות לפני האירועים שלך} booking_updates {עדכונים על ההרשמות שלך} announcements {הודעות מהמארגנים על האירועים שלך} other {הודעות}}',
    categoryName: '{category, select, reminders {תזכורות} booking_updates {עדכונים על ההרשמות} announcements {הודעות מהמארגנים} other {הודעות}}',
    channel: '{channel, select, sms {הודעת טקסט (SMS)} other {דוא״ל}}',
    phoneOnFile: 'הודעות טקסט נשלחות למספר שיש לנו: {phone}.',
    noPhone: 'אין לנו מספר נייד שלך, ולכן אי אפשר לשלוח הודעות טקסט; אפשר לבקש מ{tenantName} להוסיף אותו.',
    quietHours: 'שעות שקטות',
    quietFrom: 'מ־',
    quietTo: 'עד',
    quietHint:
      '{source, select, contact {השעות לפי {zone}, אזור הזמן שלך.} other {השעות לפי {zone}, אזור הזמן של המארגנים (אזור הזמן שלך לא ידוע לנו).}} תזכורות ועדכונים שמועדם בשעות האלה ימתינו עד סופן, אם עדיין יהיה בהם טעם. להשארת שני השדות ריקים אין שעות שקטות.',
    inShort: 'בקצרה',
    summaryChannels:
      '{category, select, reminders {תזכורות} booking_updates {עדכונים על ההרשמות} announcements {הודעות מהמארגנים} other {הודעות}} ב{channels, select, sms {SMS} both {דוא״ל וב־SMS} other {דוא״ל}}.',
    summaryNone:
      '{category, select, reminders {ללא תזכורות.} booking_updates {ללא עדכונים על ההרשמות (מלבד החיוניים, כמו ביטול אירוע).} announcements {ללא הודעות מהמארגנים.} other {ללא הודעות.}}',
    summaryQuiet: 'שעות שקטות {start}–{end} ({zone}): תזכורות, עדכונים והודעות שמועדם בשעות האלה ימתינו עד סופן, אם אפשר (ביטול אירוע לא ממתין).',
    summaryNoQuiet: 'ללא שעות שקטות.',
    summaryNoPhone: 'לא רשום מספר נייד, ולכן שום דבר לא נשלח ב־SMS.',
    save: 'שמירת ההעדפות',
    saving: 'שומרים…',
    saved: 'נשמר. ההעדפות שלך חלות מעכשיו.',
    savedUnchanged: 'נשמר — לא היה שום שינוי.',
    stale: 'ההעדפות האלה השתנו מאז שהדף נפתח — כך הן נראות עכשיו.',
    notSaved:
      'הנתונים לא נשמרו: כדאי לבדוק את {field, select, reminders {הערוצים של התזכורות} booking_updates {הערוצים של העדכונים על ההרשמות} announcements {הערוצים של ההודעות מהמארגנים} quietStart {תחילת השעות השקטות (HH:MM)} quietEnd {סוף השעות השקטות (HH:MM)} quietHours {השעות השקטות (שתי שעות, שונות זו מזו)} other {הבחירות שלך}} ולנסות שוב.',
    serverError: 'משהו השתבש אצלנו. אפשר לנסות שוב בעוד רגע.',
    offline: 'אין חיבור לשרת — כדאי לבדוק את החיבור ולנסות שוב.',
    unsubscribeTitle: 'הסרה מרשימת התפוצה: {what}',
    unsubscribeQuestion: '{hasName, select, yes {להסיר את {name} מקבלת {what} מ{tenantName}?} other {להפסיק לקבל {what} מ{tenantName}?}}',
    unsubscribeEffect: 'לא יישלחו אליך עוד {what} מ{tenantName}, לא בדוא״ל ולא בהודעת טקסט.',
    unsubscribeButton: 'הסרה',
    unsubscribeOr: 'אפשר גם לבחור ב{link} אילו הודעות לקבל, באיזה ערוץ ומתי.',
    preferencesPageLink: 'דף ההעדפות שלך',
    unsubscribedTitle: '{already, select, yes {כבר הוסרת מקבלת {what}} other {הוסרת מקבלת {what}}}',
    unsubscribedBody: '{hasName, select, yes {{name} לא יקבלו עוד {what} מ{tenantName}.} other {לא יישלחו אליך עוד {what} מ{tenantName}.}}',
    unsubscribedSince: '{hasName, select, yes {{name} לא מקבלים {what} מ{tenantName} מאז {date}.} other {לא נשלחו אליך {what} מ{tenantName} מאז {date}.}}',
    changedMind: 'שינית את דעתך, או שצריך פחות הודעות מסוג אחר? אפשר לבחור מחדש ב{link}.',
    problemExpiredTitle: 'תוקף קישור ההסרה פג',
    problemExpired: 'הקישור הפסיק לעבוד ב־{date}. כדי לשנות אילו הודעות מגיעות אליך, אפשר להשתמש בקישור להעדפות שבסוף הודעה אחרונה מהמארגנים.',
    problemInvalidTitle: 'קישור ההסרה לא עובד',
    problemInvalid: 'ייתכן שהקישור נקטע או שונה. אפשר להשתמש בקישור שבהודעה האחרונה, או בקישור להעדפות שבסופה.',
    problemGoneTitle: 'אין ממה להסיר',
    problemGone: 'האדם הזה כבר לא רשום אצלנו, ולכן אין ממה להסיר.',
    nothingChanged: 'לא שונה דבר.',
    linkBrokenTitle: 'הקישור לא עובד',
    linkBroken: 'לא מצאנו את ההעדפות שהקישור הזה מפנה אליהן. אפשר להשתמש בקישור שבהודעה האחרונה ולוודא שהוא הועתק במלואו.',
  },
};

export default he;
