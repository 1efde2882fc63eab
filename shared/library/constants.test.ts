import { describe, expect, it } from 'vitest';
import { ACTIONS, isAction } from './constants';

describe('isAction', () => {
  it('is true for each of the twelve operations', () => {
    for (const action of ACTIONS) expect(isAction(action)).toBe(true);
  });

  it('is false for unknown names, other case, and non-strings', () => {
    for (const value of ['createassetgroup', 'CreateVideo', '', undefined, null, 1, ['CreateAsset']]) {
      expect(isAction(value)).toBe(false);
    }
  });
});
