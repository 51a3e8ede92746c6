// Browser storage keys (spec §3). Reads never throw: storage can be disabled or full.
export const STORAGE_KEYS = {
  token: 'google_token',
  user: 'user_data',
  theme: 'theme',
  lastActivity: 'folio_last_activity',
  onboardingDone: 'folio_onboarding_done',
  sessionNotice: 'session_notice',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const local = {
  get: (key: string): string | null => safe(() => window.localStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.localStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => window.localStorage.removeItem(key), undefined),
};

export const session = {
  get: (key: string): string | null => safe(() => window.sessionStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.sessionStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => window.sessionStorage.removeItem(key), undefined),
};
