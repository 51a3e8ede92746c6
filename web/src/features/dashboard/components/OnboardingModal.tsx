// Onboarding (spec §2): three steps with a progress percentage, each highlighting its dashboard section.
// Escape, the backdrop or Skip dismiss it; finishing or dismissing marks it done in browser storage.
import { useEffect, useState } from 'react';
import { primaryButton, secondaryButton } from '../../../components/ui/styles.js';
import { STORAGE_KEYS, local } from '../../../lib/storage.js';
import { Dialog } from '../../../components/ui/Dialog.js';

export type OnboardingTarget = 'upload' | 'originals' | 'restored';

export const ONBOARDING_STEPS: readonly { title: string; text: string; target: OnboardingTarget }[] = [
  { title: 'Upload Your Documents', text: 'Drag & drop PDF or image files to upload.', target: 'upload' },
  {
    title: 'View Your Original Files & start restoring',
    text: 'Select files to restore with AI.',
    target: 'originals',
  },
  {
    title: 'Access Restored Files',
    text: 'Download enhanced documents. Stored for 30 days.',
    target: 'restored',
  },
];

export const isOnboardingDone = (): boolean => local.get(STORAGE_KEYS.onboardingDone) === 'true';
const markOnboardingDone = (): void => local.set(STORAGE_KEYS.onboardingDone, 'true');

export const progressPercent = (step: number): number =>
  Math.round(((step + 1) / ONBOARDING_STEPS.length) * 100);

export function OnboardingModal({ onHighlight }: { onHighlight: (target: OnboardingTarget | null) => void }) {
  const [open, setOpen] = useState(() => !isOnboardingDone());
  const [step, setStep] = useState(0);
  const current = ONBOARDING_STEPS[step] ?? ONBOARDING_STEPS[0];

  useEffect(() => {
    onHighlight(open && current ? current.target : null);
  }, [open, current, onHighlight]);

  if (!open || !current) return null;
  const finish = () => {
    markOnboardingDone();
    setOpen(false);
  };
  const last = step === ONBOARDING_STEPS.length - 1;
  const percent = progressPercent(step);

  return (
    <Dialog title={current.title} onClose={finish} size="md" spotlight>
      <p className="mt-2 text-slate-600 dark:text-slate-300">{current.text}</p>
      <div className="mt-4 flex items-center gap-3">
        <div
          role="progressbar"
          aria-label="Onboarding progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2 flex-1 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        >
          <div className="h-full bg-indigo-600 transition-[width]" style={{ width: `${percent}%` }} />
        </div>
        <span className="text-sm font-medium text-slate-600 dark:text-slate-300">{percent}%</span>
      </div>
      <p className="mt-1 text-xs text-slate-500">
        Step {step + 1} of {ONBOARDING_STEPS.length}
      </p>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <button
          type="button"
          className="min-h-6 px-1 text-sm text-slate-600 underline-offset-2 hover:underline dark:text-slate-400"
          onClick={finish}
        >
          Skip
        </button>
        <div className="flex gap-2">
          {step > 0 ? (
            <button type="button" className={secondaryButton} onClick={() => setStep(step - 1)}>
              Previous
            </button>
          ) : null}
          {last ? (
            <button type="button" className={primaryButton} data-autofocus onClick={finish}>
              Get Started
            </button>
          ) : (
            <button type="button" className={primaryButton} data-autofocus onClick={() => setStep(step + 1)}>
              Next
            </button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
