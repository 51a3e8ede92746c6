import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, describe, expect, it } from 'vitest';
import { RedisEventBus } from '../../src/realtime/redis-event-bus.js';
import { settle } from './socket-client.js';

const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
// Two buses stand for two processes: a worker that publishes and an API node that relays.
const apiNode = new RedisEventBus(REDIS_URL);
const worker = new RedisEventBus(REDIS_URL);

afterAll(async () => {
  await Promise.all([apiNode.close(), worker.close()]);
});

const event = (n: number): RealtimeEvent => ({ type: 'credits.updated', credits_remaining: n });

describe('RedisEventBus', () => {
  it("carries a user's events from one process to the subscribers of another, and only that user's", async () => {
    const user = `user-${Date.now()}`;
    const received: RealtimeEvent[] = [];
    const alsoReceived: RealtimeEvent[] = [];
    const others: RealtimeEvent[] = [];
    const stop = apiNode.subscribe(user, (e) => received.push(e));
    const stopSecond = apiNode.subscribe(user, (e) => alsoReceived.push(e));
    const stopOther = apiNode.subscribe(`${user}-other`, (e) => others.push(e));
    await apiNode.ready();

    await worker.publish(user, event(1));
    await worker.publish(user, event(2));
    await settle(200);
    expect(received).toEqual([event(1), event(2)]);
    expect(alsoReceived).toEqual([event(1), event(2)]);
    expect(others).toEqual([]);

    stop();
    stopSecond();
    await apiNode.ready();
    await worker.publish(user, event(3));
    await settle(200);
    expect(received).toHaveLength(2);
    stopOther();
  });
});
