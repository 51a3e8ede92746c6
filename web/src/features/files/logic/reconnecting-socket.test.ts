import { ReconnectingSocket, realtimeUrl, type SocketLike } from './reconnecting-socket.js';

class FakeSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  open() {
    this.onopen?.(new Event('open'));
  }
  serverClose(code: number) {
    this.onclose?.({ code } as CloseEvent);
  }
  close(code?: number) {
    this.closedWith = code;
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const log: string[] = [];
  const socket = new ReconnectingSocket({
    url: 'ws://x/ws/updates?token=t',
    intervalMs: 3000,
    create: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    handlers: {
      onMessage: (data) => log.push(`message ${String(data)}`),
      onConnectionLost: () => log.push('lost'),
      onReconnected: () => log.push('reconnected'),
    },
  });
  return { socket, sockets, log };
}

describe('ReconnectingSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes messages on', () => {
    const { socket, sockets, log } = setup();
    socket.start();
    sockets[0]?.open();
    sockets[0]?.onmessage?.({ data: '{"type":"x"}' } as MessageEvent);
    expect(log).toEqual(['message {"type":"x"}']);
  });

  it('warns once on an unclean close, retries every 3 s without limit, reports the reconnect', () => {
    const { socket, sockets, log } = setup();
    socket.start();
    sockets[0]?.open();
    sockets[0]?.serverClose(1006);
    expect(log).toEqual(['lost']);
    vi.advanceTimersByTime(2999);
    expect(sockets).toHaveLength(1);
    for (let attempt = 1; attempt <= 5; attempt++) {
      vi.advanceTimersByTime(3000);
      expect(sockets).toHaveLength(attempt + 1);
      sockets[attempt]?.serverClose(1006);
    }
    vi.advanceTimersByTime(3000);
    sockets[6]?.open();
    expect(log).toEqual(['lost', 'reconnected']);
  });

  it('does not warn on a normal close (1000) but still reconnects', () => {
    const { socket, sockets, log } = setup();
    socket.start();
    sockets[0]?.open();
    sockets[0]?.serverClose(1000);
    vi.advanceTimersByTime(3000);
    sockets[1]?.open();
    expect(log).toEqual([]);
    expect(sockets).toHaveLength(2);
  });

  it('stops reconnecting after stop()', () => {
    const { socket, sockets, log } = setup();
    socket.start();
    sockets[0]?.open();
    sockets[0]?.serverClose(1006);
    socket.stop();
    vi.advanceTimersByTime(30_000);
    expect(sockets).toHaveLength(1);
    expect(log).toEqual(['lost']);
  });

  it('closes its socket normally on stop()', () => {
    const { socket, sockets } = setup();
    socket.start();
    socket.stop();
    expect(sockets[0]?.closedWith).toBe(1000);
    vi.advanceTimersByTime(30_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('realtimeUrl', () => {
  it('derives the socket address from the API base', () => {
    expect(realtimeUrl('http://127.0.0.1:8000/api/v1', 'a b')).toBe(
      'ws://127.0.0.1:8000/api/v1/ws/updates?token=a+b',
    );
    expect(realtimeUrl('https://folio.example/api/v1/', 't')).toBe(
      'wss://folio.example/api/v1/ws/updates?token=t',
    );
  });
});
