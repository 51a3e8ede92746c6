// The backend's defences in one place: headers, rate limits (server limits and log redaction are in
// server-options.ts, given to Fastify when it is built).
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../settings.js';
import { installHeaders } from './headers.js';
import { installRateLimits } from './rate-limits.js';

export async function registerSecurity(app: FastifyInstance, settings: Readonly<Settings>): Promise<void> {
  await installHeaders(app, settings);
  await installRateLimits(app, settings);
}
