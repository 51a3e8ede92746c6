import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { getConfig } from './config/runtime.js';
import './index.css';

const config = getConfig();
document.title = `${config.appName} — ${config.appDescription}`;
document.querySelector('meta[name="description"]')?.setAttribute('content', config.appDescription);

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
