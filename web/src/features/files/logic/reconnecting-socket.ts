// The realtime connection of spec §4 "Socket": retries every 3 s without limit after any close, warns once per
// lost connection unless the close was normal (1000), reports success on reconnect, and stops for good on stop().
import { RECONNECT_INTERVAL_MS } from '@folio/shared';

export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(code?: number, reason?: string): void;
}

export interface SocketHandlers {
  onMessage(data: unknown): void;
  onConnectionLost(): void;
  onReconnected(): void;
}

export interface ReconnectingSocketOptions {
  url: string;
  handlers: SocketHandlers;
  create?: (url: string) => SocketLike;
  intervalMs?: number;
}

export const NORMAL_CLOSURE = 1000;

export class ReconnectingSocket {
  private socket: SocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private lost = false;
  private readonly create: (url: string) => SocketLike;
  private readonly intervalMs: number;

  constructor(private readonly options: ReconnectingSocketOptions) {
    this.create = options.create ?? ((url) => new WebSocket(url));
    this.intervalMs = options.intervalMs ?? RECONNECT_INTERVAL_MS;
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.close(NORMAL_CLOSURE, 'client stopped');
    }
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = this.create(this.options.url);
    this.socket = socket;
    socket.onopen = () => {
      if (this.lost) {
        this.lost = false;
        this.options.handlers.onReconnected();
      }
    };
    socket.onmessage = (event) => this.options.handlers.onMessage(event.data);
    socket.onerror = () => undefined; // a close event always follows; it decides what to do
    socket.onclose = (event) => {
      if (this.socket !== socket || this.stopped) return;
      this.socket = null;
      if (event.code !== NORMAL_CLOSURE && !this.lost) {
        this.lost = true;
        this.options.handlers.onConnectionLost();
      }
      this.timer = setTimeout(() => this.connect(), this.intervalMs);
    };
  }
}

/** ws(s)://…/api/v1/ws/updates?token=… from the API base URL (spec §7). */
export function realtimeUrl(apiBaseUrl: string, token: string): string {
  const url = new URL(`${apiBaseUrl.replace(/\/+$/, '')}/ws/updates`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('token', token);
  return url.href;
}
