import { Type } from '@fastify/type-provider-typebox';

export const ErrorSchema = Type.Object({ detail: Type.String() }, { title: 'Error' });

export const SessionUserSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    given_name: Type.Union([Type.String(), Type.Null()]),
    family_name: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'User' },
);

export const SessionSchema = Type.Object(
  {
    token: Type.String({ description: 'Session token (HS256 JWT, claims sub, email, name, exp)' }),
    user: SessionUserSchema,
    credits_remaining: Type.Integer(),
  },
  { title: 'AuthResponse' },
);

export const GoogleLoginBody = Type.Object({
  credential: Type.String({ minLength: 1, description: 'The Google ID token' }),
  select_by: Type.Optional(Type.String()),
  client_id: Type.Optional(Type.String()),
});

export const DevLoginBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  name: Type.Optional(Type.String({ maxLength: 200 })),
});

/** Error responses every authenticated route can give. */
export const authErrors = { 401: ErrorSchema } as const;
