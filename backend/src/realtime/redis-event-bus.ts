// Scale-out fan-out: every process publishes to Redis and every API node relays the events of the users that
// have a socket open on it. One channel per user, subscribed while at least one local handler listens.
import { Redis } from 'ioredis';
import type { RealtimeEvent } from './realtime-event.js';
import type { EventBus } from './event-bus.js';

type Handler = (event: RealtimeEvent) => void;

const CHANNEL_PREFIX = 'folio:events:';

export class RedisEventBus implements EventBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<Handler>>();
  private pending: Promise<unknown> = Promise.resolve();

  constructor(redisUrl: string) {
    this.publisher = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
    this.subscriber = new Redis(redisUrl, { lazyConnect: false, maxRetriesPerRequest: null });
    this.subscriber.on('message', (channel: string, message: string) => this.deliver(channel, message));
    // Errors are retried by ioredis; without a listener they would crash the process.
    this.publisher.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
  }

  async publish(userId: string, event: RealtimeEvent): Promise<void> {
    await this.publisher.publish(CHANNEL_PREFIX + userId, JSON.stringify(event));
  }

  subscribe(userId: string, handler: Handler): () => void {
    let set = this.handlers.get(userId);
    if (!set) {
      set = new Set();
      this.handlers.set(userId, set);
      this.track(this.subscriber.subscribe(CHANNEL_PREFIX + userId));
    }
    set.add(handler);
    return () => {
      const current = this.handlers.get(userId);
      if (!current) return;
      current.delete(handler);
      if (current.size === 0) {
        this.handlers.delete(userId);
        this.track(this.subscriber.unsubscribe(CHANNEL_PREFIX + userId));
      }
    };
  }

  /** Resolves once every subscription requested so far is active on the Redis server. */
  async ready(): Promise<void> {
    await this.pending;
  }

  async close(): Promise<void> {
    await this.pending;
    this.handlers.clear();
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }

  private track(operation: Promise<unknown>): void {
    this.pending = Promise.all([this.pending, operation.catch(() => undefined)]);
  }

  private deliver(channel: string, message: string): void {
    const set = this.handlers.get(channel.slice(CHANNEL_PREFIX.length));
    if (!set) return;
    let event: RealtimeEvent;
    try {
      event = JSON.parse(message) as RealtimeEvent;
    } catch {
      return;
    }
    for (const handler of [...set]) handler(event);
  }
}
