// A WebSocket client for tests that records every message and the close code.
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import WebSocket from 'ws';

export interface TestSocket {
  ws: WebSocket;
  events: RealtimeEvent[];
  opened: Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `count` events arrived (rejects after `timeoutMs`). */
  waitForEvents(count: number, timeoutMs?: number): Promise<RealtimeEvent[]>;
  close(): Promise<void>;
}

function text(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

export function openSocket(baseUrl: string, token: string | undefined): TestSocket {
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/v1/ws/updates${query}`);
  const events: RealtimeEvent[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (data: WebSocket.RawData) => {
    events.push(JSON.parse(text(data)) as RealtimeEvent);
    for (const waiter of waiters.splice(0)) waiter();
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() }));
  });
  return {
    ws,
    events,
    opened,
    closed,
    waitForEvents(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`expected ${count} events, got ${events.length}: ${JSON.stringify(events)}`)),
          timeoutMs,
        );
        const check = () => {
          if (events.length >= count) {
            clearTimeout(timer);
            resolve(events.slice(0, count));
          } else {
            waiters.push(check);
          }
        };
        check();
      });
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      ws.close(1000);
      await closed;
    },
  };
}

/** Lets in-flight socket frames arrive before asserting that nothing (else) came. */
export function settle(ms = 150): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
