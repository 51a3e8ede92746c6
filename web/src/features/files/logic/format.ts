// Display rules of spec §2 "File card" and §5: sizes, days-left badge, status badge, zip names.

const UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;

/** 1024-based, at most 2 decimals, trailing zeros dropped: 10485760 → "10 MB", 1536 → "1.5 KB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${UNITS[i]}`;
}

export type Tone = 'green' | 'amber' | 'red' | 'neutral' | 'blue';

export interface Badge {
  label: string;
  tone: Tone;
}

/**
 * Restored files (30 days): over 14 days green, 7–14 amber, under 7 red. Originals are kept 7 days, so a fresh
 * upload must not look like a warning: over 3 days green, 2–3 amber, under 2 red. 0 "Expires today"; "Nd left"
 * over 30; "Nd" on mobile.
 */
export function daysLeftBadge(
  days: number | null | undefined,
  mobile = false,
  kind: 'original' | 'restored' = 'restored',
): Badge | null {
  if (days === null || days === undefined || !Number.isFinite(days)) return null;
  const n = Math.max(0, Math.floor(days));
  const [green, amber] = kind === 'original' ? [3, 2] : [14, 7];
  const tone: Tone = n > green ? 'green' : n >= amber ? 'amber' : 'red';
  if (n === 0) return { label: 'Expires today', tone };
  if (mobile) return { label: `${n}d`, tone };
  return { label: n > 30 ? `${n}d left` : `${n} ${n === 1 ? 'day' : 'days'} left`, tone };
}

const STATUS_BADGES: Record<string, Badge> = {
  processed: { label: 'Processed', tone: 'green' },
  processing: { label: 'Processing', tone: 'amber' },
  // Not amber: a fresh upload is not a warning, and it must not look like work in progress.
  uploaded: { label: 'Uploaded', tone: 'blue' },
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
