// Window events the spec names (§4): other parts of the app raise them; the shell reacts.
export const WINDOW_EVENTS = {
  creditsInsufficient: 'credits:insufficient',
  sessionNotice: 'session:notice',
  authLogout: 'auth:logout',
} as const;

export interface MessageDetail {
  message?: string;
}

export function emit(name: string, detail: MessageDetail = {}): void {
  window.dispatchEvent(new CustomEvent<MessageDetail>(name, { detail }));
}

export function messageOf(event: Event): string | undefined {
  const detail = (event as CustomEvent<MessageDetail | string | undefined>).detail;
  if (typeof detail === 'string') return detail;
  return typeof detail?.message === 'string' ? detail.message : undefined;
}
