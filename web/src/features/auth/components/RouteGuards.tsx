// Route access of spec §2: signed-in-only pages send visitors to "/", the landing page sends users to
// /dashboard; while the auth check runs a spinner shows instead.
import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { Spinner } from '../../../components/ui/Spinner.js';
import { TEXT } from '../../../config/texts.js';
import { useAuth } from '../../../lib/auth/auth-store.js';

function Loading() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center text-slate-600 dark:text-slate-300">
      <Spinner label={TEXT.loading} />
    </div>
  );
}

export function RequireAuth({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth((s) => s);
  if (isLoading && !isAuthenticated) return <Loading />;
  return isAuthenticated ? children : <Navigate to="/" replace />;
}

export function PublicOnly({ children }: { children: ReactNode }) {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  return isAuthenticated ? <Navigate to="/dashboard" replace /> : children;
}
