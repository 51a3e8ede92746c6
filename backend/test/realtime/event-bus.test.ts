import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';

const credits = (n: number): RealtimeEvent => ({ type: 'credits.updated', credits_remaining: n });

describe('InProcessEventBus', () => {
  it("delivers a user's events only to that user's subscribers until they unsubscribe", async () => {
    const bus = new InProcessEventBus();
    const ann: RealtimeEvent[] = [];
    const annSecondTab: RealtimeEvent[] = [];
    const bob: RealtimeEvent[] = [];
    const stopAnn = bus.subscribe('ann', (event) => ann.push(event));
    bus.subscribe('ann', (event) => annSecondTab.push(event));
    bus.subscribe('bob', (event) => bob.push(event));
    await bus.publish('ann', credits(1));
    stopAnn();
    await bus.publish('ann', credits(2));
    await bus.publish('nobody', credits(3));
    expect(ann).toEqual([credits(1)]);
    expect(annSecondTab).toEqual([credits(1), credits(2)]);
    expect(bob).toEqual([]);
    await bus.close();
    await bus.publish('ann', credits(4));
    expect(annSecondTab).toHaveLength(2);
  });

  it('drops a subscriber that throws and keeps delivering to the others', async () => {
    const bus = new InProcessEventBus();
    const received: RealtimeEvent[] = [];
    let calls = 0;
    bus.subscribe('ann', () => {
      calls += 1;
      throw new Error('socket closed');
    });
    bus.subscribe('ann', (event) => received.push(event));
    await bus.publish('ann', credits(1));
    await bus.publish('ann', credits(2));
    expect(received).toEqual([credits(1), credits(2)]);
    expect(calls).toBe(1);
  });
});
