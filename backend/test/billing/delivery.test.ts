// End to end over real HTTP: the app listens on loopback, checkout goes through the real SDK to the local
// Stripe server, Stripe's side delivers the signed webhook to the app's URL, and an open WebSocket sees the
// new balance in `credits.updated`.
import type { AddressInfo } from 'node:net';
import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signInRegistered } from '../helpers/auth.js';
import { createStripeHarness, type BillingHarness } from './billing-harness.js';

function nextMessage(socket: WebSocket, timeoutMs = 5000): Promise<RealtimeEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no realtime message')), timeoutMs);
    socket.once('message', (data: Buffer) => {
      clearTimeout(timer);
      resolve(JSON.parse(data.toString('utf8')) as RealtimeEvent);
    });
  });
}

describe('Stripe purchase delivered over HTTP, seen over the socket', () => {
  let harness: BillingHarness;
  let base = '';

  beforeAll(async () => {
    harness = await createStripeHarness();
    await harness.testApp.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = harness.testApp.app.server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
  });
  afterAll(async () => {
    await harness.close();
  });

  it('credits the pack once and pushes credits_remaining to the open socket', async () => {
    const user = await signInRegistered(harness.testApp.app, 'socket@example.com');
    const socket = new WebSocket(`${base.replace('http', 'ws')}/api/v1/ws/updates?token=${user.token}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    try {
      const response = await fetch(`${base}/api/v1/billing/checkout/session`, {
        method: 'POST',
        headers: { ...user.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ packKey: 'power100', currency: 'USD' }),
      });
      expect(response.status).toBe(200);
      const { url } = (await response.json()) as { url: string };
      const sessionId = url.split('/').pop() ?? '';

      const message = nextMessage(socket);
      const event = harness.stripe.completeSession(sessionId);
      const delivered = await harness.stripe.deliver(`${base}/api/v1/billing/webhook`, event);
      expect(delivered.status).toBe(200);
      expect(await message).toEqual({ type: 'credits.updated', credits_remaining: user.credits + 100 });

      // Stripe retries deliveries it is unsure about; a redelivery is answered 200 and changes nothing.
      const redelivered = await harness.stripe.deliver(`${base}/api/v1/billing/webhook`, event);
      expect(JSON.parse(redelivered.body)).toEqual({ received: true, outcome: 'duplicate' });

      const me = await fetch(`${base}/api/v1/users/me`, { headers: user.headers });
      expect(((await me.json()) as { credits_remaining: number }).credits_remaining).toBe(user.credits + 100);

      // A refund pushes the lower balance too.
      const lowered = nextMessage(socket);
      await harness.stripe.deliver(`${base}/api/v1/billing/webhook`, harness.stripe.refund(sessionId, 5999));
      expect(await lowered).toEqual({ type: 'credits.updated', credits_remaining: user.credits });
    } finally {
      socket.close();
    }
  });
});
