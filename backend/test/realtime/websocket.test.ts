import type { RealtimeEvent } from '../../src/realtime/realtime-event.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createJobQueue } from '../../src/restoration/job-system.js';
import { createStorage } from '../../src/storage/create-storage.js';
import { SessionTokens } from '../../src/auth/session-tokens.js';
import { InProcessEventBus } from '../../src/realtime/event-bus.js';
import type { Settings } from '../../src/settings.js';
import { testSettings } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase } from '../helpers/database.js';
import { openSocket, settle } from './socket-client.js';

let jobDb: TestDatabase;
let app: FastifyInstance;
let settings: Readonly<Settings>;
let baseUrl: string;
const eventBus = new InProcessEventBus();

interface Login {
  token: string;
  userId: string;
}

async function login(email: string): Promise<Login> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/dev-login',
    payload: { email, name: email },
  });
  expect(response.statusCode).toBe(200);
  const body = response.json<{ token: string; user: { id: string } }>();
  return { token: body.token, userId: body.user.id };
}

const creditsEvent = (n: number): RealtimeEvent => ({ type: 'credits.updated', credits_remaining: n });

beforeAll(async () => {
  jobDb = await createTestDatabase();
  settings = testSettings(jobDb.dataDir, { DATABASE_URL: jobDb.databaseUrl });
  app = await buildApp({
    settings,
    db: jobDb.db,
    storage: createStorage(settings),
    queue: createJobQueue(settings, jobDb.db),
    eventBus,
  });
  baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app.close();
  await jobDb.cleanup();
});

describe('GET /api/v1/ws/updates', () => {
  it("delivers a user's events as JSON to each of their sockets, and nobody else's", async () => {
    const alice = await login('alice@example.test');
    const bob = await login('bob@example.test');
    const aliceTab1 = openSocket(baseUrl, alice.token);
    const aliceTab2 = openSocket(baseUrl, alice.token);
    const bobTab = openSocket(baseUrl, bob.token);
    await Promise.all([aliceTab1.opened, aliceTab2.opened, bobTab.opened]);
    await settle();

    await eventBus.publish(alice.userId, creditsEvent(7));
    await eventBus.publish(bob.userId, creditsEvent(3));
    await eventBus.publish(alice.userId, creditsEvent(6));

    expect(await aliceTab1.waitForEvents(2)).toEqual([creditsEvent(7), creditsEvent(6)]);
    expect(await aliceTab2.waitForEvents(2)).toEqual([creditsEvent(7), creditsEvent(6)]);
    expect(await bobTab.waitForEvents(1)).toEqual([creditsEvent(3)]);
    await settle();
    expect(aliceTab1.events).toHaveLength(2);
    expect(bobTab.events).toHaveLength(1);

    await aliceTab1.close();
    await eventBus.publish(alice.userId, creditsEvent(5));
    expect(await aliceTab2.waitForEvents(3)).toEqual([creditsEvent(7), creditsEvent(6), creditsEvent(5)]);
    await Promise.all([aliceTab2.close(), bobTab.close()]);
  });

  it('closes with 1008 and sends nothing for a missing, malformed, tampered or expired token', async () => {
    const carol = await login('carol@example.test');
    const tokens = new SessionTokens(settings.tokenSecret, settings.tokenTtlSeconds);
    const expired = await tokens.issue(
      { id: carol.userId, email: 'carol@example.test', name: 'carol', given_name: null, family_name: null },
      new Date(Date.now() - 2 * settings.tokenTtlSeconds * 1000),
    );
    const tampered = carol.token.slice(0, -4) + (carol.token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of [undefined, '', 'not-a-token', tampered, expired.token]) {
      const socket = openSocket(baseUrl, token);
      await eventBus.publish(carol.userId, creditsEvent(1));
      const { code } = await socket.closed;
      expect(code, `token ${String(token)}`).toBe(1008);
      expect(socket.events).toEqual([]);
    }
  });

  it('closes the socket with 1008 when its token expires', async () => {
    const dave = await login('dave@example.test');
    const tokens = new SessionTokens(settings.tokenSecret, settings.tokenTtlSeconds);
    const shortLived = await tokens.issue(
      { id: dave.userId, email: 'dave@example.test', name: 'dave', given_name: null, family_name: null },
      new Date(Date.now() - (settings.tokenTtlSeconds - 2) * 1000),
    );
    const socket = openSocket(baseUrl, shortLived.token);
    await socket.opened;
    await settle();
    await eventBus.publish(dave.userId, creditsEvent(9));
    expect(await socket.waitForEvents(1)).toEqual([creditsEvent(9)]);
    const { code } = await socket.closed;
    expect(code).toBe(1008);
  });
});
