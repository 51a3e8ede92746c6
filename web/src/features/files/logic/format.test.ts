import { daysLeftBadge, formatSize, statusBadge, zipName } from './format.js';

describe('formatSize', () => {
  it.each([
    [0, '0 Bytes'],
    [512, '512 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1234567, '1.18 MB'],
    [10 * 1024 * 1024, '10 MB'],
    [3 * 1024 ** 3 + 1024 ** 3 / 3, '3.33 GB'],
  ])('%d bytes → %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text);
  });
});

describe('daysLeftBadge', () => {
  it('colours over 14 green, 7 to 14 amber, under 7 red', () => {
    expect(daysLeftBadge(15)?.tone).toBe('green');
    expect(daysLeftBadge(14)?.tone).toBe('amber');
    expect(daysLeftBadge(7)?.tone).toBe('amber');
    expect(daysLeftBadge(6)?.tone).toBe('red');
    expect(daysLeftBadge(0)?.tone).toBe('red');
  });
  it('does not warn about a fresh original: its 7-day retention is scaled (over 3 green, 2-3 amber)', () => {
    expect(daysLeftBadge(7, false, 'original')?.tone).toBe('green');
    expect(daysLeftBadge(4, false, 'original')?.tone).toBe('green');
    expect(daysLeftBadge(3, false, 'original')?.tone).toBe('amber');
    expect(daysLeftBadge(2, false, 'original')?.tone).toBe('amber');
    expect(daysLeftBadge(1, false, 'original')?.tone).toBe('red');
    expect(daysLeftBadge(0, false, 'original')?.label).toBe('Expires today');
  });
  it('labels days, long spans, today and mobile', () => {
    expect(daysLeftBadge(12)?.label).toBe('12 days left');
    expect(daysLeftBadge(30)?.label).toBe('30 days left');
    expect(daysLeftBadge(31)?.label).toBe('31d left');
    expect(daysLeftBadge(0)?.label).toBe('Expires today');
    expect(daysLeftBadge(9, true)?.label).toBe('9d');
    expect(daysLeftBadge(null)).toBeNull();
  });
});

describe('statusBadge', () => {
  it('maps known statuses and shows others as they are', () => {
    expect(statusBadge('processed')).toEqual({ label: 'Processed', tone: 'green' });
    expect(statusBadge('processing')).toEqual({ label: 'Processing', tone: 'amber' });
    // A fresh upload is not a warning: not the amber of work in progress (issue 18.10).
    expect(statusBadge('uploaded')).toEqual({ label: 'Uploaded', tone: 'blue' });
    expect(statusBadge('error')).toEqual({ label: 'Error', tone: 'red' });
    expect(statusBadge('queued')).toEqual({ label: 'queued', tone: 'neutral' });
  });
});

describe('zipName', () => {
  it('names one file download.zip and several by timestamp', () => {
    expect(zipName(1, 5)).toBe('download.zip');
    expect(zipName(3, 1763784000000)).toBe('selected_files_1763784000000.zip');
  });
});
