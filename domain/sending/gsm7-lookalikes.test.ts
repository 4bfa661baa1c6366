import { describe, expect, it } from 'vitest';
import { gsm7Letters, gsm7Lookalikes, gsm7Punctuation } from './gsm7-lookalikes';
import { countSmsSegments, gsm7Septets } from './sms-segments';

const isGsm = (s: string) => [...s].every((ch) => gsm7Septets(ch) !== null);

describe('the look-alike tables', () => {
  it('replace only characters GSM-7 lacks, each by GSM-7 characters', () => {
    const tables = [gsm7Punctuation, ...Object.values(gsm7Letters)];
    for (const table of tables) {
      for (const [from, to] of Object.entries(table)) {
        expect(isGsm(from), `${from} is already GSM-7`).toBe(false);
        expect(isGsm(to), `${from} → ${to} is not GSM-7`).toBe(true);
      }
    }
  });
  it('German needs no letter replaced: its letters are GSM-7', () => {
    expect(gsm7Letters.de).toBeUndefined();
    expect(isGsm('äöüßÄÖÜ')).toBe(true);
  });
});

describe('gsm7Lookalikes', () => {
  it.each([
    ['fr', 'Votre place pour l’atelier est confirmée. Ça commence à 19 h — à bientôt !', "Votre place pour l'atelier est confirmée. Ça commence à 19 h - à bientot !"],
    ['fr', 'Fête de l’été « Œuvres »', `Fete de l'été " OEuvres "`],
    ['es', 'Tu plaza está confirmada. Empieza el mié., 3 dic.', 'Tu plaza esta confirmada. Empieza el mié., 3 dic.'],
    ['es', 'Mañana, ¿vienes? Sí.', 'Mañana, ¿vienes? Si.'],
    ['pt-BR', 'Sua vaga está confirmada. Começa às 19h – não se esqueça.', 'Sua vaga esta confirmada. Comeca às 19h - nao se esqueca.'],
    ['it', 'È confermato: il tuo posto è già prenotato… ciò è così.', "E' confermato: il tuo posto è già prenotato... ciò è così."],
    ['nl', 'Je plek is bevestigd. Ideeën? Reünie op zo 28 mrt.', 'Je plek is bevestigd. Ideeen? Reünie op zo 28 mrt.'],
    ['de', 'Ihr Platz ist bestätigt: „Glasur“ – Do., 3. Dez., 06:30\u202fUhr', 'Ihr Platz ist bestätigt: "Glasur" - Do., 3. Dez., 06:30 Uhr'],
    ['en', 'You’re booked – Sun 28 Mar, 10:30\u202fAM', "You're booked - Sun 28 Mar, 10:30 AM"],
    ['he', 'המקום שלך אושר – יום ה׳', 'המקום שלך אושר - יום ה׳'],
  ])('%s: %j', (locale, text, expected) => {
    expect(gsm7Lookalikes(text, locale)).toBe(expected);
  });

  it('letters are replaced only for the language whose table has them', () => {
    expect(gsm7Lookalikes('está', 'en')).toBe('está');
    expect(gsm7Lookalikes('está', 'es-MX')).toBe('esta');
    expect(gsm7Lookalikes('está', '')).toBe('está');
  });

  it('common fixed wording of each Latin-script language fits GSM-7 afterwards', () => {
    const samples: [string, string][] = [
      ['fr', 'Votre place pour l’atelier est confirmée. Il commence le jeu. 3 déc. à 06:30 (UTC−5). Où : Studio Noord. Gérer : https://x.test/p'],
      ['es', 'Tu plaza en el taller está confirmada. Empieza el mié., 3 dic., 06:30. Dónde: Studio Noord. Gestionar: https://x.test/p'],
      ['pt', 'Sua vaga no workshop está confirmada. Começa em qua., 3 de dez., 06:30. Onde: Studio Noord. Preferências: https://x.test/p'],
      ['it', 'Il tuo posto è confermato. Inizia gio 3 dic, 06:30. Dove: Studio Noord. Perché: sì. È tutto.'],
      ['nl', 'Je plek is bevestigd. Het begint do 3 dec, 06:30. Waar: Studio Noord. Ideeën welkom.'],
      ['de', 'Ihr Platz ist bestätigt. Beginn: Do., 3. Dez., 06:30 MEZ. Ort: Studio Noord. Einstellungen: https://x.test/p'],
    ];
    for (const [locale, text] of samples) {
      expect(countSmsSegments(text).encoding, `${locale} before`).toBe(locale === 'de' ? 'GSM-7' : 'UCS-2');
      expect(countSmsSegments(gsm7Lookalikes(text, locale)).encoding, locale).toBe('GSM-7');
    }
  });
});
