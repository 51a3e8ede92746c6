// Runtime configuration (spec §7): the backend serves /config.js, which sets these window globals before the
// app starts, so one build runs anywhere. Parsed once; missing config falls back to defaults.
import { API_BASE_PATH } from '@folio/shared';

declare global {
  interface Window {
    API_BASE_URL?: string;
    GOOGLE_CLIENT_ID?: string;
    APP_NAME?: string;
    APP_DESCRIPTION?: string;
    ENABLE_DEVTOOLS?: string | boolean;
    ENABLE_LOGGING?: string | boolean;
    DEV_LOGIN_ENABLED?: string | boolean;
  }
}

export interface RuntimeConfig {
  apiBaseUrl: string;
  googleClientId: string;
  appName: string;
  appDescription: string;
  enableDevtools: boolean;
  enableLogging: boolean;
  devLoginEnabled: boolean;
  /** Backend origin: the API base URL without /api/v1 (used for the realtime socket). */
  backendOrigin: string;
  environment: 'production';
}

export const DEFAULT_APP_NAME = 'Folio AI';
export const DEFAULT_APP_DESCRIPTION = 'AI-Powered Document Restoration';
/** Fixed local development address, used only when the page has no origin of its own. */
const FALLBACK_ORIGIN = 'http://127.0.0.1:8000';

const isTrue = (value: string | boolean | undefined): boolean => value === true || value === 'true';

export function readRuntimeConfig(w: Window = window): RuntimeConfig {
  const found = w.API_BASE_URL !== undefined || w.GOOGLE_CLIENT_ID !== undefined || w.APP_NAME !== undefined;
  if (!found) console.error('Runtime configuration not found! Using fallback values.');
  const apiBaseUrl = (w.API_BASE_URL || API_BASE_PATH).replace(/\/+$/, '');
  const pageOrigin = w.location?.origin && w.location.origin !== 'null' ? w.location.origin : FALLBACK_ORIGIN;
  const absoluteBase = new URL(apiBaseUrl, pageOrigin).href.replace(/\/+$/, '');
  return {
    apiBaseUrl: absoluteBase,
    googleClientId: w.GOOGLE_CLIENT_ID ?? '',
    appName: w.APP_NAME || DEFAULT_APP_NAME,
    appDescription: w.APP_DESCRIPTION || DEFAULT_APP_DESCRIPTION,
    enableDevtools: isTrue(w.ENABLE_DEVTOOLS),
    enableLogging: isTrue(w.ENABLE_LOGGING),
    devLoginEnabled: isTrue(w.DEV_LOGIN_ENABLED),
    backendOrigin: absoluteBase.replace(new RegExp(`${API_BASE_PATH}$`), ''),
    environment: 'production',
  };
}

let cached: RuntimeConfig | undefined;

export function getConfig(): RuntimeConfig {
  cached ??= readRuntimeConfig();
  return cached;
}

/** Tests change window globals between cases. */
export function resetConfigForTests(): void {
  cached = undefined;
}
