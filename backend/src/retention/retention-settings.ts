// Settings of the retention sweep, read once per process next to the main settings object.
import { SettingsError, type Env } from '../settings.js';

export interface RetentionSettings {
  /** Time between two sweeps. */
  sweepIntervalMs: number;
  /** Stored objects without a row are removed only once older than this (an upload may be between steps). */
  orphanMinAgeMs: number;
}

function int(env: Env, name: string, fallback: number, min: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new SettingsError(`${name} must be an integer of at least ${min}, got "${raw}"`);
  }
  return Number(raw);
}

export function loadRetentionSettings(env: Env = process.env): Readonly<RetentionSettings> {
  return Object.freeze({
    sweepIntervalMs: int(env, 'RETENTION_SWEEP_INTERVAL_SECONDS', 900, 1) * 1000,
    orphanMinAgeMs: int(env, 'RETENTION_ORPHAN_MIN_AGE_SECONDS', 3600, 60) * 1000,
  });
}
