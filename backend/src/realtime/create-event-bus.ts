// The fan-out chosen from settings: Redis pub/sub when REDIS_URL is set (events cross processes and
// machines), else in-process (the embedded default, where the worker runs inside the API process).
import type { Settings } from '../settings.js';
import { InProcessEventBus, type EventBus } from './event-bus.js';
import { RedisEventBus } from './redis-event-bus.js';

export function createEventBus(settings: Pick<Settings, 'redisUrl'>): EventBus {
  return settings.redisUrl ? new RedisEventBus(settings.redisUrl) : new InProcessEventBus();
}
