// Connects the realtime socket while signed in (spec §4 "Socket"); stops on logout or unmount.
import { useEffect, useRef } from 'react';
import { getConfig } from '../../../config/runtime.js';
import { notify } from '../../../lib/notifications.js';
import { ReconnectingSocket, realtimeUrl } from '../logic/reconnecting-socket.js';
import { TEXTS } from '../logic/texts.js';

export function useRealtime(token: string | null, onMessage: (data: unknown) => void): void {
  const handler = useRef(onMessage);
  handler.current = onMessage;

  useEffect(() => {
    if (!token) return;
    const socket = new ReconnectingSocket({
      url: realtimeUrl(getConfig().apiBaseUrl, token),
      handlers: {
        onMessage: (data) => handler.current(data),
        // Stays while the connection is down; "Reconnected…" replaces it.
        onConnectionLost: () => notify(TEXTS.connection.lost, 'warning', { sticky: true }),
        onReconnected: () => notify(TEXTS.connection.restored, 'success'),
      },
    });
    socket.start();
    return () => socket.stop();
  }, [token]);
}
