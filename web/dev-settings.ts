// Settings of the development server (`vite dev`), the one place web/ reads process.env. The app itself reads
// none: its settings come from /config.js at run time (src/config/runtime.ts).

/** The backend that `vite dev` proxies the API and /config.js to (FOLIO_BACKEND_URL). */
export const backendUrl = process.env.FOLIO_BACKEND_URL ?? 'http://127.0.0.1:8000';
