import { describe, expect, it } from 'vitest';
import { matchedTotpStep, totpCandidateSteps, totpStepAt } from './totp-steps';

describe('TOTP time steps (RFC 6238)', () => {
  it('T = floor(unix seconds / 30): the RFC 6238 appendix B instants', () => {
    expect(totpStepAt(59_000)).toBe(1);
    expect(totpStepAt(1_111_111_109_000)).toBe(0x23523ec);
    expect(totpStepAt(1_111_111_111_000)).toBe(0x23523ed);
    expect(totpStepAt(29_999)).toBe(0);
    expect(totpStepAt(30_000)).toBe(1);
  });

  it('candidates are the steps better-auth accepts: one before, now, one after', () => {
    expect(totpCandidateSteps(59_000)).toEqual([0, 1, 2]);
    expect(totpCandidateSteps(59_000, 30, 0)).toEqual([1]);
  });

  it('finds the step a code belongs to; a wrong code matches none', () => {
    const candidates = [
      { step: 10, code: '111111' },
      { step: 11, code: '222222' },
      { step: 12, code: '333333' },
    ];
    expect(matchedTotpStep('222222', candidates)).toBe(11);
    expect(matchedTotpStep('333333', candidates)).toBe(12);
    expect(matchedTotpStep('444444', candidates)).toBeNull();
    expect(matchedTotpStep('22222', candidates)).toBeNull();
    expect(matchedTotpStep('2222220', candidates)).toBeNull();
    expect(matchedTotpStep('', candidates)).toBeNull();
  });

  it('two steps sharing a code: the later one is taken (the code cannot be used again for it)', () => {
    expect(matchedTotpStep('555555', [{ step: 1, code: '555555' }, { step: 2, code: '555555' }, { step: 3, code: '000000' }])).toBe(2);
  });
});
