// Google's own sign-in button (Identity Services). Without a client id it is a disabled placeholder
// with a setup hint (spec §5). While auth loads it becomes a spinner (spec §2).
import { useEffect, useId, useRef, useState } from 'react';
import { focusRing } from '../../../components/ui/styles.js';
import { Spinner } from '../../../components/ui/Spinner.js';
import { getConfig } from '../../../config/runtime.js';
import { TEXT } from '../../../config/texts.js';
import { useAuth } from '../../../lib/auth/auth-store.js';
import { initializeGoogle, loadGoogleIdentity } from '../../../lib/auth/google-identity.js';
import { useStore } from '../../../lib/store.js';
import { themeStore } from '../../../lib/theme.js';

export const GOOGLE_SETUP_HINT = 'Set GOOGLE_CLIENT_ID on the server to enable Google sign-in.';

export function GoogleSignInButton({
  size = 'large',
  showHint = true,
}: {
  size?: 'medium' | 'large';
  showHint?: boolean;
}) {
  const { googleClientId } = getConfig();
  const isLoading = useAuth((s) => s.isLoading);
  const theme = useStore(themeStore, (t) => t);
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const hintId = useId();

  useEffect(() => {
    if (!googleClientId || isLoading) return;
    let cancelled = false;
    loadGoogleIdentity()
      .then((id) => {
        if (cancelled || !host.current) return;
        initializeGoogle(id, googleClientId);
        host.current.replaceChildren();
        id.renderButton(host.current, {
          type: 'standard',
          theme: theme === 'dark' ? 'filled_black' : 'outline',
          size,
          text: 'signin_with',
          shape: 'pill',
        });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [googleClientId, isLoading, size, theme]);

  const height = size === 'large' ? 'min-h-11' : 'min-h-9';
  if (isLoading) {
    return (
      <Spinner label={TEXT.signingIn} className={`${height} text-sm text-slate-600 dark:text-slate-300`} />
    );
  }
  if (!googleClientId) {
    return (
      <div className="flex flex-col items-start gap-1">
        <button
          type="button"
          disabled
          aria-describedby={hintId}
          className={`${height} cursor-not-allowed rounded-full border border-slate-300 bg-slate-100 px-4 text-sm font-medium text-slate-500 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-400 ${focusRing}`}
        >
          {TEXT.googleSetupRequired}
        </button>
        <p id={hintId} className={showHint ? 'text-xs text-slate-500 dark:text-slate-400' : 'sr-only'}>
          {GOOGLE_SETUP_HINT}
        </p>
      </div>
    );
  }
  if (failed) {
    return (
      <p role="alert" className="text-sm text-red-600 dark:text-red-400">
        {TEXT.googleCancelled}
      </p>
    );
  }
  return <div ref={host} data-testid="google-signin" className={`${height} min-w-[200px]`} />;
}
