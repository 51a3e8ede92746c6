import type { FastifyInstance } from 'fastify';

export interface SignedIn {
  token: string;
  userId: string;
  headers: { authorization: string };
  credits: number;
}

/** Signs in through the development sign-in, like the web app's dev form does. */
export async function signIn(app: FastifyInstance, email: string, name = 'Test User'): Promise<SignedIn> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/dev-login',
    payload: { email, name },
  });
  if (response.statusCode !== 200)
    throw new Error(`dev-login failed: ${response.statusCode} ${response.body}`);
  const body = response.json<{ token: string; user: { id: string }; credits_remaining: number }>();
  return {
    token: body.token,
    userId: body.user.id,
    headers: { authorization: `Bearer ${body.token}` },
    credits: body.credits_remaining,
  };
}

/** Signs in and registers (grants the signup credits), as the web app does after every sign-in. */
export async function signInRegistered(
  app: FastifyInstance,
  email: string,
  name?: string,
): Promise<SignedIn> {
  const session = await signIn(app, email, name);
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/users/register',
    headers: session.headers,
  });
  if (response.statusCode !== 200)
    throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { ...session, credits: response.json<{ credits_remaining: number }>().credits_remaining };
}
