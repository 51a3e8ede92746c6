// App root: providers, router, and the start-up wiring (theme, auth check, session watch, GIS callback).
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { loginWithGoogle, initAuth, startSessionWatch } from '../lib/auth/session.js';
import { onGoogleCredential } from '../lib/auth/google-identity.js';
import { setRedirect } from '../lib/auth/unauthorized.js';
import { authStore } from '../lib/auth/auth-store.js';
import { dismissNotification, notify } from '../lib/notifications.js';
import { queryClient } from '../lib/query-client.js';
import { startTheme } from '../lib/theme.js';
import { createRouter } from './router.js';

export function App() {
  const [router] = useState(createRouter);

  useEffect(() => {
    setRedirect((path) => void router.navigate(path, { replace: true }));
    onGoogleCredential((response) => {
      void loginWithGoogle(response).then((ok) => {
        if (ok) {
          dismissNotification();
          void router.navigate('/dashboard');
        } else {
          notify(authStore.getState().error ?? 'Login failed', 'error');
        }
      });
    });
    const stopTheme = startTheme();
    const stopWatch = startSessionWatch();
    void initAuth();
    return () => {
      stopTheme();
      stopWatch();
    };
  }, [router]);

  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}
