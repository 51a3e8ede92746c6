// Google Identity Services: loads the provider's script once and wraps the parts the app uses
// (button rendering, one-tap prompt for silent re-auth).
import { SILENT_REAUTH_TIMEOUT_MS } from '@folio/shared';
import { TEXT } from '../../config/texts.js';

export const GIS_SCRIPT_URL = 'https://accounts.google.com/gsi/client';

export interface GoogleCredentialResponse {
  credential?: string;
  select_by?: string;
  clientId?: string;
  client_id?: string;
}

interface PromptNotification {
  isNotDisplayed?: () => boolean;
  isSkippedMoment?: () => boolean;
  isDismissedMoment?: () => boolean;
}

export interface GoogleAccountsId {
  initialize(options: {
    client_id: string;
    callback: (response: GoogleCredentialResponse) => void;
    auto_select?: boolean;
    cancel_on_tap_outside?: boolean;
    use_fedcm_for_prompt?: boolean;
  }): void;
  renderButton(parent: HTMLElement, options: Record<string, unknown>): void;
  prompt(listener?: (notification: PromptNotification) => void): void;
  cancel?(): void;
  disableAutoSelect?(): void;
}

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

let loading: Promise<GoogleAccountsId> | undefined;

export function loadGoogleIdentity(): Promise<GoogleAccountsId> {
  const ready = window.google?.accounts?.id;
  if (ready) return Promise.resolve(ready);
  loading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = GIS_SCRIPT_URL;
    script.async = true;
    script.defer = true;
    script.onload = () => {
      const id = window.google?.accounts?.id;
      if (id) resolve(id);
      else reject(new Error(TEXT.silentReauthUnavailable));
    };
    script.onerror = () => {
      loading = undefined;
      reject(new Error(TEXT.googleCancelled));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** The identity service calls back one global callback; buttons and the one-tap prompt share it. */
let credentialHandler: (response: GoogleCredentialResponse) => void = () => undefined;
let initializedFor: string | undefined;

export function onGoogleCredential(handler: (response: GoogleCredentialResponse) => void): void {
  credentialHandler = handler;
}

export function initializeGoogle(id: GoogleAccountsId, clientId: string): void {
  if (initializedFor === clientId) return;
  initializedFor = clientId;
  id.initialize({
    client_id: clientId,
    callback: (response) => credentialHandler(response),
    auto_select: true,
    cancel_on_tap_outside: true,
  });
}

/** Spec §4 silent re-auth: one-tap with auto-select; resolves with a fresh credential or rejects in 2 s. */
export function silentReauth(
  clientId: string,
  timeoutMs: number = SILENT_REAUTH_TIMEOUT_MS,
): Promise<GoogleCredentialResponse> {
  const id = window.google?.accounts?.id;
  if (!clientId || !id) return Promise.reject(new Error(TEXT.silentReauthUnavailable));
  return new Promise((resolve, reject) => {
    const previous = credentialHandler;
    const finish = (fn: () => void) => {
      clearTimeout(timer);
      credentialHandler = previous;
      fn();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(TEXT.silentReauthTimeout))), timeoutMs);
    initializeGoogle(id, clientId);
    credentialHandler = (response) => {
      if (response.credential) finish(() => resolve(response));
      else finish(() => reject(new Error(TEXT.failedToParseCredential)));
    };
    id.prompt((notification) => {
      if (
        notification.isNotDisplayed?.() ||
        notification.isSkippedMoment?.() ||
        notification.isDismissedMoment?.()
      ) {
        finish(() => reject(new Error(TEXT.silentReauthDismissed)));
      }
    });
  });
}
