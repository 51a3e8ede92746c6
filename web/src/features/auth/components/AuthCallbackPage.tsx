import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner.js';
import { TEXT } from '../../../config/texts.js';
import { useAuth } from '../../../lib/auth/auth-store.js';

/** Spec §2 /auth/callback: wait for the auth check, then go to the dashboard or home. */
export function AuthCallbackPage() {
  const navigate = useNavigate();
  const { isLoading, isAuthenticated } = useAuth((s) => s);
  useEffect(() => {
    if (!isLoading) void navigate(isAuthenticated ? '/dashboard' : '/', { replace: true });
  }, [isLoading, isAuthenticated, navigate]);
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner label={TEXT.processingAuth} className="text-slate-700 dark:text-slate-200" />
    </div>
  );
}
