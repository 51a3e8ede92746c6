// Shared layout (spec §2): sticky header, routed page, footer; plus the banner, the credit modal and the
// window events that drive them.
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { getConfig } from '../../config/runtime.js';
import { CreditModal } from '../../features/billing/components/CreditModal.js';
import { openCreditModal } from '../../features/billing/credit-modal-store.js';
import { notify } from '../../lib/notifications.js';
import { STORAGE_KEYS, session } from '../../lib/storage.js';
import { WINDOW_EVENTS, messageOf } from '../../lib/window-events.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { NotificationBanner } from './NotificationBanner.js';

export function AppLayout() {
  const { appName } = getConfig();
  const { pathname } = useLocation();

  useEffect(() => {
    const onInsufficient = (event: Event) => openCreditModal(messageOf(event));
    const onNotice = (event: Event) => {
      const message = messageOf(event);
      if (message) notify(message, 'warning');
    };
    window.addEventListener(WINDOW_EVENTS.creditsInsufficient, onInsufficient);
    window.addEventListener(WINDOW_EVENTS.sessionNotice, onNotice);
    return () => {
      window.removeEventListener(WINDOW_EVENTS.creditsInsufficient, onInsufficient);
      window.removeEventListener(WINDOW_EVENTS.sessionNotice, onNotice);
    };
  }, []);

  // A file dropped where nothing takes it must not make the browser open it and leave the app.
  useEffect(() => {
    const keep = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', keep);
    window.addEventListener('drop', keep);
    return () => {
      window.removeEventListener('dragover', keep);
      window.removeEventListener('drop', keep);
    };
  }, []);
  // The stored session notice is shown once, on "/" where an expired session lands.
  useEffect(() => {
    if (pathname !== '/') return;
    const notice = session.get(STORAGE_KEYS.sessionNotice);
    if (!notice) return;
    session.remove(STORAGE_KEYS.sessionNotice);
    notify(notice, 'warning');
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col bg-white text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <a
        href="#main"
        className="sr-only z-50 rounded bg-indigo-600 px-3 py-2 text-white focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Skip to content
      </a>
      <NotificationBanner />
      <Header appName={appName} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <Footer appName={appName} />
      <CreditModal />
    </div>
  );
}
