// Parsing of WebSocket messages (spec §4 "Realtime events"): unparseable messages are logged and ignored.
import type { RealtimeEvent } from '../../../api/types.js';

const KNOWN_TYPES = new Set<RealtimeEvent['type']>([
  'file.upload.completed',
  'file.preview.ready',
  'file.deleted',
  'restoration.progress',
  'restoration.completed',
  'restoration.failed',
  'credits.updated',
]);

/** The typed events of @folio/shared; returns null (after logging) for anything else. */
export function parseRealtimeMessage(
  raw: unknown,
  log: (msg: string, data: unknown) => void,
): RealtimeEvent | null {
  let data: unknown;
  try {
    data = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    log('Ignoring unparseable realtime message', raw);
    return null;
  }
  if (typeof data !== 'object' || data === null || !('type' in data) || typeof data.type !== 'string') {
    log('Ignoring realtime message without a type', raw);
    return null;
  }
  if (!KNOWN_TYPES.has(data.type as RealtimeEvent['type'])) {
    log('Ignoring realtime message of unknown type', raw);
    return null;
  }
  const event = data as Record<string, unknown>;
  if (event.type === 'restoration.progress') {
    if (typeof event.original_file_id !== 'string' || typeof event.currentPage !== 'number') {
      log('Ignoring malformed progress message', raw);
      return null;
    }
  }
  if (FILE_EVENTS.has(event.type) && !isFile(event.file)) {
    log('Ignoring realtime message without a file', raw);
    return null;
  }
  return event as unknown as RealtimeEvent;
}

const FILE_EVENTS = new Set<unknown>([
  'file.upload.completed',
  'file.preview.ready',
  'restoration.completed',
]);

const isFile = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && 'id' in v && typeof v.id === 'string' && 'type' in v;
