import { focusRing } from '../../components/ui/styles.js';
import { TEXT } from '../../config/texts.js';

export const SUPPORT_EMAIL = 'support@folio.example';

export function Footer({ appName }: { appName: string }) {
  const link = `inline-flex min-h-6 items-center text-sm text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white ${focusRing}`;
  return (
    <footer className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2">
          <a className={link} href={`mailto:${SUPPORT_EMAIL}`}>
            {TEXT.contactUs}
          </a>
          <a className={link} href="#privacy">
            {TEXT.privacyPolicy}
          </a>
          <a className={link} href="#terms">
            {TEXT.termsOfService}
          </a>
        </nav>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          © {new Date().getFullYear()} {appName}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
