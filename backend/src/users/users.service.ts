// Users: created on first sign-in, granted their signup credits once on register.
import { randomUUID } from 'node:crypto';
import type { Static } from '@fastify/type-provider-typebox';
import type { CreditsService } from '../credits/credits.service.js';
import type { Executor, Trx } from '../db/transaction.js';
import { fromDbBool, nowIso } from '../db/values.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { UsersRepository, type UserRow } from './users.repository.js';
import type { UserProfileSchema } from './users.schemas.js';

export interface SignInIdentity {
  /** Google subject; absent for the development sign-in. */
  googleSub?: string;
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
}

/** The profile as the API answers it: the type of its schema, declared once. */
export type UserProfile = Static<typeof UserProfileSchema>;

export const signupReference = (userId: string): string => `signup:${userId}`;

export function toProfile(user: UserRow): UserProfile {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    given_name: user.given_name,
    family_name: user.family_name,
    credits_remaining: user.credits_remaining,
    purchase_tier: user.purchase_tier,
    signup_granted: fromDbBool(user.signup_granted),
    created_at: user.created_at,
  };
}

export class UsersService {
  constructor(
    private readonly credits: CreditsService,
    private readonly signupCredits: number,
    private readonly repo = new UsersRepository(),
  ) {}

  /** Finds the user of a sign-in, creating it on first sign-in and refreshing the names it carries. */
  async signIn(trx: Trx, identity: SignInIdentity): Promise<UserRow> {
    const email = identity.email.trim().toLowerCase();
    const now = nowIso();
    const names = {
      name: identity.name,
      given_name: identity.given_name,
      family_name: identity.family_name,
      updated_at: now,
    };
    if (identity.googleSub) {
      const bySub = await this.repo.findByGoogleSub(trx, identity.googleSub);
      if (bySub) return this.repo.update(trx, bySub.id, names);
    }
    const byEmail = await this.repo.findByEmail(trx, email);
    if (byEmail) {
      if (!identity.googleSub) return this.repo.update(trx, byEmail.id, names);
      if (byEmail.google_sub && byEmail.google_sub !== identity.googleSub) {
        throw new ConflictError('This email address belongs to another Google account');
      }
      // A first Google sign-in for an account created by email (development sign-in) links the two.
      return this.repo.update(trx, byEmail.id, { ...names, google_sub: identity.googleSub });
    }
    return this.repo.insert(trx, {
      id: randomUUID(),
      google_sub: identity.googleSub ?? null,
      email,
      name: identity.name,
      given_name: identity.given_name,
      family_name: identity.family_name,
      credits_remaining: 0,
      created_at: now,
      updated_at: now,
    });
  }

  /** Idempotent: the signup grant goes through the ledger once per user, however often this runs. */
  async register(trx: Trx, userId: string): Promise<UserProfile> {
    const user = await this.repo.findById(trx, userId);
    if (!user) throw new NotFoundError('User not found');
    if (!fromDbBool(user.signup_granted)) {
      if (this.signupCredits > 0) {
        await this.credits.apply(trx, {
          userId,
          delta: this.signupCredits,
          reason: 'signup',
          reference: signupReference(userId),
        });
      }
      await this.repo.markSignupGranted(trx, userId, nowIso());
    }
    return this.profile(trx, userId);
  }

  async profile(db: Executor, userId: string): Promise<UserProfile> {
    const user = await this.repo.findById(db, userId);
    if (!user) throw new NotFoundError('User not found');
    return toProfile(user);
  }

  async findById(db: Executor, userId: string): Promise<UserRow | undefined> {
    return this.repo.findById(db, userId);
  }

  async findByGoogleSub(db: Executor, sub: string): Promise<UserRow | undefined> {
    return this.repo.findByGoogleSub(db, sub);
  }
}
