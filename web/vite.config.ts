import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { backendUrl as backend } from './dev-settings.js';

// The backend serves web/dist on the same origin; in `vite dev` the API and /config.js are proxied to it.

// The plugins' types come from the hoisted Vite (vitest's); their runtime API is the same for Vite 7.
const plugins = [react(), tailwindcss()] as unknown as PluginOption[];

export default defineConfig({
  plugins,
  server: { proxy: { '/api': { target: backend, ws: true }, '/config.js': backend } },
  build: { outDir: 'dist', emptyOutDir: true },
});
