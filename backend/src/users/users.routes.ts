import type { FastifyPluginCallbackTypebox } from '@fastify/type-provider-typebox';
import { ErrorSchema } from '../auth/auth.schemas.js';
import type { Db } from '../db/database.js';
import { withTransaction } from '../db/transaction.js';
import { UserProfileSchema } from './users.schemas.js';
import type { UsersService } from './users.service.js';

export const usersRoutes: FastifyPluginCallbackTypebox<{ db: Db; users: UsersService }> = (
  app,
  { db, users },
  done,
) => {
  app.post(
    '/users/register',
    {
      schema: {
        operationId: 'registerUser',
        tags: ['users'],
        summary: 'Register the signed-in user; grants the signup credits once (idempotent)',
        response: { 200: UserProfileSchema, 401: ErrorSchema },
      },
    },
    (request) => withTransaction(db, (trx) => users.register(trx, request.user.id)),
  );

  app.get(
    '/users/me',
    {
      schema: {
        operationId: 'getMe',
        tags: ['users'],
        summary: 'The signed-in user and their credits',
        response: { 200: UserProfileSchema, 401: ErrorSchema },
      },
    },
    (request) => users.profile(db, request.user.id),
  );
  done();
};
