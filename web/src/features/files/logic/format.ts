// Display rules of spec §2 "File card" and §5: sizes, days-left badge, status badge, zip names.

const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** 1024-based, at most 2 decimals, trailing zeros dropped: 10485760 → "10 MB", 1536 → "1.5 KB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${UNITS[i]}`;
}

export type Tone = 'green' | 'amber' | 'red' | 'neutral';

export interface Badge {
  label: string;
  tone: Tone;
}

/** Over 14 days green, 7–14 amber, under 7 red; 0 "Expires today"; "Nd left" over 30; "Nd" on mobile. */
export function daysLeftBadge(days: number | null | undefined, mobile = false): Badge | null {
  if (days === null || days === undefined || !Number.isFinite(days)) return null;
  const n = Math.max(0, Math.floor(days));
  const tone: Tone = n > 14 ? 'green' : n >= 7 ? 'amber' : 'red';
  if (n === 0) return { label: 'Expires today', tone };
  if (mobile) return { label: `${n}d`, tone };
  return { label: n > 30 ? `${n}d left` : `${n} ${n === 1 ? 'day' : 'days'} left`, tone };
}

const STATUS_BADGES: Record<string, Badge> = {
  processed: { label: 'Processed', tone: 'green' },
  processing: { label: 'Processing', tone: 'amber' },
  uploaded: { label: 'Uploaded', tone: 'amber' },
  error: { label: 'Error', tone: 'red' },
};

export const statusBadge = (status: string): Badge =>
  STATUS_BADGES[status] ?? { label: status, tone: 'neutral' };

/** `download.zip` for one file, else `selected_files_{timestamp}.zip`. */
export const zipName = (count: number, now: number = Date.now()): string =>
  count === 1 ? 'download.zip' : `selected_files_${now}.zip`;

export const formatDate = (iso: string): string => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};
