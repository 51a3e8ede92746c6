// Sticky header (spec §2): signed out — anchors, Google sign-in, theme toggle and a mobile menu;
// signed in — name, balance, Buy and logout.
import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Logo } from '../../components/ui/Logo.js';
import { focusRing, primaryButton, secondaryButton } from '../../components/ui/styles.js';
import { GoogleSignInButton } from '../../features/auth/components/GoogleSignInButton.js';
import { openCreditModal } from '../../features/billing/credit-modal-store.js';
import { useAuth } from '../../lib/auth/auth-store.js';
import { logout } from '../../lib/auth/session.js';
import { useMe } from '../../lib/auth/use-me.js';
import { CreditsBadge } from './CreditsBadge.js';
import { ThemeToggle } from './ThemeToggle.js';

const ANCHORS = [
  { href: '#example', label: 'Example' },
  { href: '#features', label: 'Features' },
  { href: '#pricing', label: 'Pricing' },
];

export function Header({ appName }: { appName: string }) {
  const { isAuthenticated, user } = useAuth((s) => s);
  const me = useMe();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const credits = me.data?.credits_remaining ?? 0;
  // Anchors point into the landing page; from other pages they lead there first.
  const anchor = (href: string) => (location.pathname === '/' ? href : `/${href}`);

  useEffect(() => setMenuOpen(false), [location.pathname, isAuthenticated]);

  const signOut = () => {
    logout();
    void navigate('/');
  };

  const navLink = `rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:text-indigo-700 dark:text-slate-300 dark:hover:text-white ${focusRing}`;

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
        <Link to="/" className={`rounded-md ${focusRing}`} aria-label={`${appName} home`}>
          <Logo name={appName} compact={isAuthenticated} />
        </Link>

        {isAuthenticated ? (
          <div className="flex min-w-0 items-center gap-2 sm:gap-3">
            <span
              className="max-w-[6rem] truncate text-sm font-medium text-slate-700 sm:max-w-[12rem] dark:text-slate-200"
              data-testid="user-name"
            >
              {user?.name}
            </span>
            <CreditsBadge credits={credits} />
            <button
              type="button"
              className={`${primaryButton} px-3 py-1.5`}
              onClick={() => openCreditModal()}
            >
              Buy
            </button>
            <ThemeToggle />
            <button type="button" className={`${secondaryButton} px-3 py-1.5`} onClick={signOut}>
              Logout
            </button>
          </div>
        ) : (
          <>
            <nav aria-label="Main" className="hidden items-center gap-4 md:flex">
              {ANCHORS.map((item) => (
                <a key={item.href} href={anchor(item.href)} className={navLink}>
                  {item.label}
                </a>
              ))}
            </nav>
            <div className="hidden items-center gap-2 md:flex">
              <ThemeToggle />
              <GoogleSignInButton size="medium" showHint={false} />
            </div>
            <button
              type="button"
              className={`rounded-lg p-2 text-slate-700 hover:bg-slate-100 md:hidden dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`}
              aria-expanded={menuOpen}
              aria-controls="mobile-menu"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
              >
                {menuOpen ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
              </svg>
            </button>
          </>
        )}
      </div>
      {!isAuthenticated && menuOpen ? (
        <div id="mobile-menu" className="border-t border-slate-200 px-4 pb-4 md:hidden dark:border-slate-800">
          <nav aria-label="Mobile" className="flex flex-col py-2">
            {ANCHORS.map((item) => (
              <a
                key={item.href}
                href={anchor(item.href)}
                className={`${navLink} py-2`}
                onClick={() => setMenuOpen(false)}
              >
                {item.label}
              </a>
            ))}
          </nav>
          <div className="flex flex-col items-start gap-3">
            <ThemeToggle withLabel />
            <GoogleSignInButton size="large" />
          </div>
        </div>
      ) : null}
    </header>
  );
}
