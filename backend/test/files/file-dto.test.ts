import { describe, expect, it } from 'vitest';
import { daysRemaining } from '../../src/files/file-dto.js';

describe('daysRemaining', () => {
  const expires = '2026-03-31T10:00:00.000Z';

  it('counts whole UTC days to the expiry day', () => {
    expect(daysRemaining(expires, new Date('2026-03-01T10:00:00.000Z'))).toBe(30);
    expect(daysRemaining(expires, new Date('2026-03-01T23:59:59.000Z'))).toBe(30);
    expect(daysRemaining(expires, new Date('2026-03-30T00:00:00.000Z'))).toBe(1);
  });

  it('is 0 on the last day and never negative', () => {
    expect(daysRemaining(expires, new Date('2026-03-31T00:00:00.000Z'))).toBe(0);
    expect(daysRemaining(expires, new Date('2026-03-31T09:59:59.000Z'))).toBe(0);
    expect(daysRemaining(expires, new Date('2026-04-02T00:00:00.000Z'))).toBe(0);
  });
});
