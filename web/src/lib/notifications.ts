// The notification banner's state (spec §2): one notice at a time; only non-error notices auto-hide after
// 5000 ms, then fade for 300 ms before they are removed. Errors stay until closed.
import { NOTICE_AUTO_HIDE_MS, NOTICE_FADE_MS } from '@folio/shared';
import { createStore } from './store.js';

export type NotificationType = 'error' | 'warning' | 'success' | 'info';

export interface Notification {
  id: number;
  type: NotificationType;
  message: string;
  isVisible: boolean;
}

export const notificationStore = createStore<Notification | null>(null);

let nextId = 1;
let hideTimer: ReturnType<typeof setTimeout> | undefined;
let removeTimer: ReturnType<typeof setTimeout> | undefined;

function clearTimers(): void {
  clearTimeout(hideTimer);
  clearTimeout(removeTimer);
}

/** `sticky`: the notice stays until closed or replaced (a state that lasts, like a lost connection). */
export function notify(
  message: string,
  type: NotificationType = 'error',
  options: { sticky?: boolean } = {},
): void {
  clearTimers();
  const id = nextId++;
  notificationStore.setState({ id, type, message, isVisible: true });
  if (type !== 'error' && !options.sticky)
    hideTimer = setTimeout(() => dismissNotification(id), NOTICE_AUTO_HIDE_MS);
}

/** Starts the fade-out; the notice is removed once the fade is over. */
export function dismissNotification(id?: number): void {
  const current = notificationStore.getState();
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimers();
  notificationStore.setState({ ...current, isVisible: false });
  removeTimer = setTimeout(() => {
    if (notificationStore.getState()?.id === current.id) notificationStore.setState(null);
  }, NOTICE_FADE_MS);
}
