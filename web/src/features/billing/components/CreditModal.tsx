// "Select Credit Package" (spec §2): three packs, Popular badge on the middle one, default essential10,
// Proceed to Checkout redirects to the payment page.
import { CREDIT_PACKS, DEFAULT_PACK_KEY, type PackKey } from '@folio/shared';
import { useCallback, useState } from 'react';
import { Modal } from '../../../components/ui/Modal.js';
import { focusRing, primaryButton, secondaryButton } from '../../../components/ui/styles.js';
import { TEXT } from '../../../config/texts.js';
import { useStore } from '../../../lib/store.js';
import { createCheckoutSession } from '../api.js';
import { closeCreditModal, creditModalStore } from '../credit-modal-store.js';
import { formatPrice, pricePerCredit } from '../pricing.js';

export function CreditModal({
  redirect = (url: string) => window.location.assign(url),
}: {
  redirect?: (url: string) => void;
}) {
  const { open, reason } = useStore(creditModalStore, (s) => s);
  if (!open) return null;
  return <CreditModalDialog reason={reason} redirect={redirect} />;
}

function CreditModalDialog({ reason, redirect }: { reason?: string; redirect: (url: string) => void }) {
  const [selected, setSelected] = useState<PackKey>(DEFAULT_PACK_KEY);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => {
    if (!busy) closeCreditModal();
  }, [busy]);

  const proceed = async () => {
    setBusy(true);
    try {
      redirect(await createCheckoutSession(selected));
    } catch (error) {
      console.error(error);
      window.alert(TEXT.checkoutFailed);
      setBusy(false);
    }
  };

  return (
    <Modal title={TEXT.creditModalTitle} onClose={close}>
      {reason ? (
        <p
          role="alert"
          className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950/40 dark:text-amber-200"
        >
          {reason}
        </p>
      ) : null}
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">
        Each credit restores one page. Choose a package:
      </p>
      <fieldset className="mt-4">
        <legend className="sr-only">Credit packages</legend>
        <div className="grid gap-3 sm:grid-cols-3">
          {CREDIT_PACKS.map((pack) => {
            const checked = pack.key === selected;
            return (
              <label
                key={pack.key}
                data-pack={pack.key}
                className={`relative flex cursor-pointer flex-col rounded-xl border-2 p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500 ${
                  checked
                    ? 'border-indigo-600 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/40'
                    : 'border-slate-200 hover:border-slate-300 dark:border-slate-700 dark:hover:border-slate-500'
                }`}
              >
                <input
                  type="radio"
                  name="credit-pack"
                  value={pack.key}
                  checked={checked}
                  onChange={() => setSelected(pack.key)}
                  className="sr-only"
                  {...(checked ? { 'data-autofocus': true } : {})}
                />
                {pack.popular ? (
                  <span className="absolute -top-3 right-3 rounded-full bg-indigo-600 px-2 py-0.5 text-xs font-semibold text-white">
                    {TEXT.popular}
                  </span>
                ) : null}
                <span className="font-semibold text-slate-900 dark:text-white">{pack.name}</span>
                <span className="mt-1 text-2xl font-bold text-slate-900 dark:text-white">
                  {formatPrice(pack)}
                </span>
                <span className="text-sm text-slate-600 dark:text-slate-300">{pack.credits} credits</span>
                <span className="text-xs text-slate-600 dark:text-slate-300">{pricePerCredit(pack)}</span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button type="button" className={secondaryButton} onClick={close} disabled={busy}>
          {TEXT.cancel}
        </button>
        <button
          type="button"
          className={`${primaryButton} ${focusRing}`}
          onClick={() => void proceed()}
          disabled={busy}
        >
          {busy ? TEXT.processing : TEXT.proceedToCheckout}
        </button>
      </div>
    </Modal>
  );
}
