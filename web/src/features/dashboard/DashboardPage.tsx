// First version of the dashboard (the dashboard feature replaces it): greets the signed-in user.
import { useAuth } from '../../lib/auth/auth-store.js';

export function DashboardPage() {
  const user = useAuth((s) => s.user);
  return (
    <section aria-labelledby="dashboard-title" className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <h1 id="dashboard-title" className="text-2xl font-bold text-slate-900 dark:text-white">
        Dashboard
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">Welcome, {user?.name ?? 'there'}.</p>
    </section>
  );
}
