import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/guard/edit-distance.js';

describe('editDistance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('signea', 'signed')).toBe(1);
    expect(editDistance('greed', 'agreed')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('abc', '')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
