/** Onboarding spotlight on a dashboard section: lifted above the page, everything around it dimmed. */
export const HIGHLIGHT_CLASS =
  'relative z-[55] border-indigo-500 ring-4 ring-indigo-400 shadow-[0_0_0_9999px_rgba(15,23,42,0.55)]';
