// Checkout return pages (spec §2). Success refreshes the file list and user data once on load.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { primaryButton } from '../../../components/ui/styles.js';
import { TEXT } from '../../../config/texts.js';
import { fetchProfile } from '../../../lib/auth/session.js';
import { queryKeys } from '../../../lib/query-client.js';

function ResultCard({ ok, title, body }: { ok: boolean; title: string; body: string }) {
  return (
    <section
      aria-labelledby="billing-result"
      className="mx-auto my-16 max-w-lg rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm dark:border-slate-700 dark:bg-slate-900"
    >
      <div
        aria-hidden="true"
        className={`mx-auto flex size-14 items-center justify-center rounded-full text-2xl ${ok ? 'bg-green-100 text-green-700 dark:bg-green-900/40 dark:text-green-300' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'}`}
      >
        {ok ? '✓' : '×'}
      </div>
      <h1 id="billing-result" className="mt-4 text-2xl font-bold text-slate-900 dark:text-white">
        {title}
      </h1>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{body}</p>
      <Link to="/dashboard" className={`${primaryButton} mt-6`}>
        Back to dashboard
      </Link>
    </section>
  );
}

export function BillingSuccessPage() {
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.files });
    void fetchProfile();
  }, [queryClient]);
  return <ResultCard ok title={TEXT.paymentSuccessful} body={TEXT.paymentSuccessfulBody} />;
}

export function BillingCancelPage() {
  return <ResultCard ok={false} title={TEXT.paymentCanceled} body={TEXT.paymentCanceledBody} />;
}
