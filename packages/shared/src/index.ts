export * from './credit-packs.js';
export * from './limits.js';
export * from './realtime-events.js';
