// Limits and timings of spec §9. The backend takes its API path (API_BASE_PATH) and the defaults of MAX_UPLOAD_MB
// and RESTORED_RETENTION_DAYS from here; the other values are the web app's.
export const MAX_UPLOAD_MB_DEFAULT = 10;
export const UPLOAD_EXTENSIONS = ['.pdf', '.png', '.jpg', '.jpeg'] as const;
export const RESTORED_RETENTION_DAYS_DEFAULT = 30;
export const API_BASE_PATH = '/api/v1';
export const API_TIMEOUT_MS = 120_000;
export const TOKEN_EXPIRY_MARGIN_S = 60;
export const ACTIVITY_WINDOW_MS = 1_800_000;
export const REFRESH_DEBOUNCE_MS = 1_000;
export const SILENT_REAUTH_TIMEOUT_MS = 2_000;
export const SESSION_REDIRECT_DELAY_MS = 100;
export const UNAUTHORIZED_REPEAT_GUARD_MS = 1_000;
export const RECONNECT_INTERVAL_MS = 3_000;
export const NOTICE_AUTO_HIDE_MS = 5_000;
export const NOTICE_FADE_MS = 300;
export const CREDITS_PULSE_MS = 400;
export const PDF_PREVIEW_WIDTH_PX = 280;
