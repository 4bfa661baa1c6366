import { describe, expect, it } from 'vitest';
import { formParams, twilioSignature, twilioSignedString, verifyTwilioSignature } from './twilio-signature';

/**
 * Twilio's documented example (docs "Webhooks security", and the twilio-node `validateRequest` snippets in
 * TwilioDevEd/api-snippets security/signature_validation/*.js): Auth Token 12345, URL
 * https://mycompany.com/myapp.php?foo=1&bar=2 and the five POST parameters below.
 */
const TOKEN = '12345';
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };

describe('X-Twilio-Signature', () => {
  it("Twilio's documented vector → RSOYDt4T1cUTdK1PDd93/VVr8B8=", () => {
    expect(twilioSignature(TOKEN, URL_, PARAMS)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    expect(verifyTwilioSignature(TOKEN, URL_, PARAMS, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
  });

  it("the docs' second vector (numbers ending 310) → GvWf1cFY/Q7PnoempGyD5oXAezc=", () => {
    const p = { ...PARAMS, Caller: '+14158675310', From: '+14158675310' };
    expect(twilioSignature(TOKEN, URL_, p)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
  });

  it('the signed string is the URL then name+value sorted by name', () => {
    expect(twilioSignedString(URL_, PARAMS)).toBe(`${URL_}CallSidCA1234567890ABCDECaller+14158675309Digits1234From+14158675309To+18005551212`);
    expect(twilioSignedString('https://x.test/cb', { b: '2', B: '1', a: ['z', 'y'] })).toBe('https://x.test/cbB1ayazb2');
  });

  it('parameter order in the body does not matter', () => {
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(twilioSignature(TOKEN, URL_, reversed)).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
  });

  it.each([
    ['another token', '54321', URL_, PARAMS],
    ['another URL (http instead of https)', TOKEN, URL_.replace('https', 'http'), PARAMS],
    ['a missing query string', TOKEN, 'https://mycompany.com/myapp.php', PARAMS],
    ['a changed value', TOKEN, URL_, { ...PARAMS, Digits: '1235' }],
    ['an added parameter', TOKEN, URL_, { ...PARAMS, ErrorCode: '30003' }],
  ] as const)('rejects %s', (_label, token, url, params) => {
    expect(verifyTwilioSignature(token, url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
  });

  it('rejects a missing, empty or truncated header, and an empty token', () => {
    expect(verifyTwilioSignature(TOKEN, URL_, PARAMS, null)).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL_, PARAMS, '')).toBe(false);
    expect(verifyTwilioSignature(TOKEN, URL_, PARAMS, 'RSOYDt4T1cUTdK1PDd93/VVr8B8')).toBe(false);
    expect(verifyTwilioSignature('', URL_, PARAMS, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(false);
  });

  it('a name given several times: each distinct value once, values sorted (twilio-node toFormUrlEncodedParam, twilio-python compute_signature)', () => {
    expect(twilioSignedString('https://x.test/cb', { Digits: ['5678', '1234', '1234'], Sid: 'CA123' })).toBe('https://x.test/cbDigits1234Digits5678SidCA123');
    expect(twilioSignature(TOKEN, URL_, { ...PARAMS, Digits: ['1234', '1234'] })).toBe('RSOYDt4T1cUTdK1PDd93/VVr8B8=');
    // Reordering repeated values does not change the signature: which value is "first" is not signed.
    const a = formParams('MessageSid=SM1&MessageStatus=delivered&MessageStatus=failed');
    const b = formParams('MessageSid=SM1&MessageStatus=failed&MessageStatus=delivered');
    expect(twilioSignature(TOKEN, URL_, a)).toBe(twilioSignature(TOKEN, URL_, b));
  });

  it('formParams decodes a form body as Twilio signs it (+ is a space, %2B is +, repeated names keep every value)', () => {
    expect(formParams('To=%2B31612345678&Body=Hi+there&A=1&A=2')).toEqual({ To: '+31612345678', Body: 'Hi there', A: ['1', '2'] });
    const body = new URLSearchParams(PARAMS).toString();
    expect(verifyTwilioSignature(TOKEN, URL_, formParams(body), 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(true);
  });
});
