import { Type } from '@fastify/type-provider-typebox';

export const UserProfileSchema = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    name: Type.String(),
    given_name: Type.Union([Type.String(), Type.Null()]),
    family_name: Type.Union([Type.String(), Type.Null()]),
    credits_remaining: Type.Integer(),
    purchase_tier: Type.String(),
    signup_granted: Type.Boolean(),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'Me' },
);
