// Sign-in actions for the UI: run the login, show a failure in the banner, go to /dashboard on success.
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { authStore } from '../../lib/auth/auth-store.js';
import type { GoogleCredentialResponse } from '../../lib/auth/google-identity.js';
import { loginWithDevAccount, loginWithGoogle } from '../../lib/auth/session.js';
import { dismissNotification, notify } from '../../lib/notifications.js';

export function useSignIn() {
  const navigate = useNavigate();
  const finish = useCallback(
    (ok: boolean) => {
      if (ok) {
        dismissNotification();
        void navigate('/dashboard');
      } else {
        notify(authStore.getState().error ?? 'Login failed', 'error');
      }
      return ok;
    },
    [navigate],
  );
  return {
    google: useCallback(
      async (response: GoogleCredentialResponse) => finish(await loginWithGoogle(response)),
      [finish],
    ),
    dev: useCallback(
      async (email: string, name: string) => finish(await loginWithDevAccount(email, name)),
      [finish],
    ),
  };
}
