// Sign-in and request authentication. This service is a transaction boundary of its own: it verifies
// credentials (network, CPU) outside any transaction, then opens a short one to find or create the user.
import { decodeProtectedHeader } from 'jose';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/errors.js';
import { withTransaction } from '../db/transaction.js';
import { NotFoundError, UnauthorizedError } from '../errors.js';
import type { UserRow } from '../users/users.repository.js';
import type { SignInIdentity, UsersService } from '../users/users.service.js';
import type { GoogleVerifier } from './google-verifier.js';
import type { SessionTokens } from './session-tokens.js';

/** The signed-in user as routes see it (`request.user`). */
export interface AuthUser {
  id: string;
  email: string;
  name: string;
}

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
}

export interface Session {
  token: string;
  user: SessionUser;
  credits_remaining: number;
}

export const SESSION_EXPIRED = 'Session expired. Please sign in again.';

const toAuthUser = (user: UserRow): AuthUser => ({ id: user.id, email: user.email, name: user.name });

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly users: UsersService,
    private readonly tokens: SessionTokens,
    private readonly google: GoogleVerifier,
    private readonly devLoginEnabled: boolean,
    private readonly sessionMaxAgeSeconds: number = 30 * 24 * 3600,
  ) {}

  async googleLogin(credential: string): Promise<Session> {
    const identity = await this.google.verify(credential);
    return this.#session(await this.#signIn({ ...identity, googleSub: identity.sub }));
  }

  async devLogin(email: string, name: string | undefined): Promise<Session> {
    if (!this.devLoginEnabled) throw new NotFoundError('Not found');
    const trimmed = name?.trim();
    const display = trimmed ? trimmed : email.split('@')[0] || email;
    const parts = display.split(/\s+/);
    return this.#session(
      await this.#signIn({
        email,
        name: display,
        given_name: parts[0] ?? null,
        family_name: parts.length > 1 ? parts.slice(1).join(' ') : null,
      }),
    );
  }

  /**
   * A fresh session token for the bearer of `token`. It keeps the original sign-in time, so a session
   * cannot be refreshed forever: past the maximum session age the person signs in again.
   */
  async refresh(token: string, now = new Date()): Promise<Session> {
    let userId: string;
    let signedInAt = now;
    if (decodeProtectedHeader(token).alg === 'HS256') {
      ({ userId, signedInAt } = await this.tokens.verifySession(token));
      if (now.getTime() - signedInAt.getTime() > this.sessionMaxAgeSeconds * 1000) {
        throw new UnauthorizedError(SESSION_EXPIRED);
      }
    } else {
      // A Google ID token is itself a fresh sign-in.
      userId = (await this.authenticateToken(token)).id;
    }
    const user = await this.users.findById(this.db, userId);
    if (!user) throw new UnauthorizedError('User no longer exists');
    return this.#session(user, signedInAt);
  }

  /**
   * Resolves a Bearer token: a session token this backend issued (HS256) or a Google ID token (RS256,
   * which signs the user in on first use). Anything else, including `alg: none` and HS256 tokens forged
   * with Google's public key, is a 401.
   */
  async authenticateToken(token: string): Promise<AuthUser> {
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
    } catch {
      throw new UnauthorizedError('Invalid token');
    }
    if (alg === 'HS256') {
      const userId = await this.tokens.verify(token);
      const user = await this.users.findById(this.db, userId);
      if (!user) throw new UnauthorizedError('User no longer exists');
      return toAuthUser(user);
    }
    if (alg === 'RS256') {
      const identity = await this.google.verify(token);
      // Known users are only read, so a Google token sent with every request writes nothing.
      const known = await this.users.findByGoogleSub(this.db, identity.sub);
      if (known) return toAuthUser(known);
      return toAuthUser(await this.#signIn({ ...identity, googleSub: identity.sub }));
    }
    throw new UnauthorizedError('Invalid token: unsupported algorithm');
  }

  async #signIn(identity: SignInIdentity): Promise<UserRow> {
    try {
      return await withTransaction(this.db, (trx) => this.users.signIn(trx, identity));
    } catch (error) {
      // Two first sign-ins of the same person raced; the other one created the user, so look again.
      if (!isUniqueViolation(error)) throw error;
      return withTransaction(this.db, (trx) => this.users.signIn(trx, identity));
    }
  }

  async #session(user: UserRow, signedInAt = new Date()): Promise<Session> {
    const { token } = await this.tokens.issue(user, new Date(), signedInAt);
    return {
      token,
      user: {
        id: user.id,
        email: user.email,
        name: user.name,
        given_name: user.given_name,
        family_name: user.family_name,
      },
      credits_remaining: user.credits_remaining,
    };
  }
}
