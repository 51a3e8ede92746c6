// Development sign-in (only when the server enables it): a clearly labelled local account form.
import { useId, useState, type FormEvent } from 'react';
import { focusRing, secondaryButton } from '../../../components/ui/styles.js';
import { useSignIn } from '../use-sign-in.js';

const input = `w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-white ${focusRing}`;

export function DevLoginForm() {
  const { dev } = useSignIn();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const ok = await dev(email.trim(), name.trim() || email.trim());
    if (!ok) setBusy(false);
  };

  return (
    <form
      aria-labelledby={`${id}-title`}
      onSubmit={(event) => void submit(event)}
      className="w-full max-w-sm rounded-xl border border-dashed border-amber-400 bg-amber-50 p-4 text-left dark:border-amber-500/60 dark:bg-amber-950/30"
    >
      <h3 id={`${id}-title`} className="text-sm font-semibold text-amber-900 dark:text-amber-200">
        Development sign-in
      </h3>
      <p className="mt-1 text-xs text-amber-800 dark:text-amber-300">
        For local testing only. The server has development sign-in enabled; no password is checked.
      </p>
      <div className="mt-3 space-y-2">
        <label
          className="block text-xs font-medium text-slate-700 dark:text-slate-300"
          htmlFor={`${id}-email`}
        >
          Email
          <input
            id={`${id}-email`}
            className={input}
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label
          className="block text-xs font-medium text-slate-700 dark:text-slate-300"
          htmlFor={`${id}-name`}
        >
          Name
          <input
            id={`${id}-name`}
            className={input}
            type="text"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
      </div>
      <button type="submit" disabled={busy} className={`${secondaryButton} mt-3 w-full`}>
        Sign in (development)
      </button>
    </form>
  );
}
