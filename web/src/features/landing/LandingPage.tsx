// The signed-out product page (spec §1, §2): hero, example video, features, pricing, final call to action.
import { CREDIT_PACKS } from '@folio/shared';
import { useEffect, useRef, useState } from 'react';
import { focusRing, primaryButton } from '../../components/ui/styles.js';
import { getConfig } from '../../config/runtime.js';
import { TEXT } from '../../config/texts.js';
import { DevLoginForm, GoogleSignInButton } from '../auth/index.js';
import { TIER_CLAIMS, formatPrice } from '../billing/index.js';
import { HeroIllustration } from './HeroIllustration.js';

const FEATURES = [
  {
    title: TEXT.featureAi,
    body: 'A generative AI model reconstructs damaged or faded text, removes stains and noise and improves clarity, while keeping the original layout.',
    icon: 'M12 3l1.9 4.6L18.5 9.5l-4.6 1.9L12 16l-1.9-4.6L5.5 9.5l4.6-1.9z',
  },
  {
    title: TEXT.featureSecure,
    body: 'Your documents are processed securely, visible only to you, and deleted automatically after a retention period.',
    icon: 'M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6z',
  },
  {
    title: TEXT.featureFast,
    body: 'Pages are restored in seconds. Watch progress live and download the results as soon as they are ready.',
    icon: 'M13 2L4 14h7l-1 8 9-12h-7z',
  },
];

function useReducedMotion(): boolean {
  const query = '(prefers-reduced-motion: reduce)';
  const [reduced, setReduced] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia(query).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const media = window.matchMedia(query);
    const onChange = () => setReduced(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

function SectionHeading({
  id,
  kicker,
  title,
  children,
}: {
  id: string;
  kicker: string;
  title: string;
  children?: string;
}) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold uppercase tracking-wide text-indigo-600 dark:text-indigo-400">
        {kicker}
      </p>
      <h2
        id={id}
        className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl dark:text-white"
      >
        {title}
      </h2>
      {children ? <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">{children}</p> : null}
    </div>
  );
}

export function LandingPage() {
  const { appName, devLoginEnabled } = getConfig();
  const reducedMotion = useReducedMotion();
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);

  return (
    <>
      <section
        aria-labelledby="hero-title"
        className="relative overflow-hidden bg-gradient-to-b from-indigo-50 to-white dark:from-slate-900 dark:to-slate-950"
      >
        <div className="mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 md:py-24 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="inline-flex rounded-full bg-indigo-100 px-3 py-1 text-xs font-semibold text-indigo-700 dark:bg-indigo-900/50 dark:text-indigo-300">
              Generative AI document restoration
            </p>
            <h1
              id="hero-title"
              className="mt-4 text-4xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white"
            >
              Bring damaged documents and photos back to life
            </h1>
            <p className="mt-5 text-lg text-slate-600 dark:text-slate-300">
              {appName} uses a generative AI model to reconstruct damaged text, improve clarity and keep the
              layout of your scans. Documents are processed securely and in seconds.
            </p>
            <div className="mt-8 flex flex-wrap items-center gap-4">
              <a href="#get-started" className={primaryButton}>
                Get started
              </a>
              <a
                href="#example"
                className={`inline-flex min-h-6 items-center text-sm font-semibold text-indigo-700 hover:underline dark:text-indigo-300 ${focusRing}`}
              >
                See an example →
              </a>
            </div>
            <p className="mt-6 text-sm text-slate-500 dark:text-slate-400">
              PDF, PNG, JPG, JPEG and TIFF · up to 10 MB per file · one credit restores one page
            </p>
          </div>
          <div className="rounded-2xl bg-white p-2 shadow-xl ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700">
            <HeroIllustration />
          </div>
        </div>
      </section>

      <section id="example" aria-labelledby="example-title" className="scroll-mt-20 py-16 md:py-24">
        <div className="mx-auto max-w-5xl px-4 sm:px-6">
          <SectionHeading
            id="example-title"
            kicker="Example"
            title="Before and after, restored by the product"
          >
            Faded, stained and noisy pages come back crisp and readable, with every word where it was.
          </SectionHeading>
          <video
            ref={video}
            onPlay={() => setPlaying(true)}
            onPause={() => setPlaying(false)}
            className="mt-10 aspect-video w-full rounded-2xl bg-slate-900 shadow-lg"
            src="/demo_video.mp4"
            poster="/demo_poster.jpg"
            width={1280}
            height={720}
            muted
            loop
            playsInline
            autoPlay={!reducedMotion}
            controls={reducedMotion}
            preload="metadata"
            aria-label="Demo: damaged pages and their restored versions"
          />
          {/* Moving content that plays by itself can be paused (WCAG 2.2.2). */}
          <div className="mt-3 flex justify-end">
            <button
              type="button"
              data-testid="video-toggle"
              onClick={() => void (playing ? video.current?.pause() : video.current?.play())}
              className={`rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:border-slate-600 dark:text-slate-200 dark:hover:bg-slate-800 ${focusRing}`}
            >
              {playing ? 'Pause video' : 'Play video'}
            </button>
          </div>
        </div>
      </section>

      <section
        id="features"
        aria-labelledby="features-title"
        className="scroll-mt-20 bg-slate-50 py-16 md:py-24 dark:bg-slate-900/60"
      >
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="features-title" kicker="Features" title="Restoration you can trust" />
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {FEATURES.map((feature) => (
              <li
                key={feature.title}
                className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700"
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 24 24"
                  className="size-10 rounded-lg bg-indigo-100 p-2 text-indigo-600 dark:bg-indigo-900/50 dark:text-indigo-300"
                >
                  <path d={feature.icon} fill="currentColor" />
                </svg>
                <h3 className="mt-4 text-lg font-semibold text-slate-900 dark:text-white">{feature.title}</h3>
                <p className="mt-2 text-slate-600 dark:text-slate-300">{feature.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="pricing" aria-labelledby="pricing-title" className="scroll-mt-20 py-16 md:py-24">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <SectionHeading id="pricing-title" kicker="Pricing" title="Pay per page, no subscription">
            One credit restores one page. Buy a pack once you are signed in.
          </SectionHeading>
          <ul className="mt-12 grid gap-6 md:grid-cols-3">
            {CREDIT_PACKS.map((pack) => (
              <li
                key={pack.key}
                data-pack={pack.key}
                className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm dark:bg-slate-900 ${pack.popular ? 'ring-2 ring-indigo-600 dark:ring-indigo-400' : 'ring-1 ring-slate-200 dark:ring-slate-700'}`}
              >
                {pack.popular ? (
                  <span className="absolute -top-3 left-6 rounded-full bg-indigo-600 px-3 py-0.5 text-xs font-semibold text-white">
                    Most popular
                  </span>
                ) : null}
                <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{pack.name}</h3>
                <p className="mt-4">
                  <span className="text-4xl font-bold text-slate-900 dark:text-white">
                    {formatPrice(pack)}
                  </span>{' '}
                  <span className="text-slate-500 dark:text-slate-400">USD</span>
                </p>
                <p className="mt-1 text-slate-600 dark:text-slate-300">
                  {pack.credits} credits · {pack.credits} pages
                </p>
                <ul className="mt-6 flex-1 space-y-2 text-sm text-slate-700 dark:text-slate-300">
                  {TIER_CLAIMS[pack.tier].map((claim) => (
                    <li key={claim} className="flex gap-2">
                      <span aria-hidden="true" className="text-indigo-600 dark:text-indigo-400">
                        ✓
                      </span>
                      {claim}
                    </li>
                  ))}
                </ul>
                <a href="#get-started" className={`${primaryButton} mt-6`}>
                  Get {pack.name}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        id="get-started"
        aria-labelledby="cta-title"
        className="scroll-mt-20 bg-indigo-600 py-16 md:py-20 dark:bg-indigo-950"
      >
        <div className="mx-auto flex max-w-4xl flex-col items-center gap-6 px-4 text-center sm:px-6">
          <h2 id="cta-title" className="text-3xl font-bold text-white sm:text-4xl">
            Restore your first document today
          </h2>
          <p className="max-w-2xl text-indigo-100">
            Sign in with your Google account to upload files and start restoring.
          </p>
          <div className="flex flex-col items-center gap-6 md:flex-row md:items-start">
            <div className="rounded-xl bg-white p-4 dark:bg-slate-900">
              <GoogleSignInButton />
            </div>
            {devLoginEnabled ? <DevLoginForm /> : null}
          </div>
        </div>
      </section>
    </>
  );
}
