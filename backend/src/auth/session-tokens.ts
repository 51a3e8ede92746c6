// Session tokens the backend issues: HS256 JWTs signed with TOKEN_SECRET. The web app decodes the payload
// for exp, sub, email and name, so those claims are always present.
import { SignJWT, errors, jwtVerify } from 'jose';
import { UnauthorizedError } from '../errors.js';

export const SESSION_ISSUER = 'folio';
export const SESSION_AUDIENCE = 'folio';

export interface SessionSubject {
  id: string;
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
}

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

export class SessionTokens {
  readonly #key: Uint8Array;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.#key = new TextEncoder().encode(secret);
  }

  /** `signedInAt`: when the person signed in; a refreshed token keeps it (claim auth_time). */
  async issue(user: SessionSubject, now = new Date(), signedInAt = now): Promise<IssuedToken> {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + this.ttlSeconds;
    const token = await new SignJWT({
      auth_time: Math.floor(signedInAt.getTime() / 1000),
      email: user.email,
      name: user.name,
      ...(user.given_name ? { given_name: user.given_name } : {}),
      ...(user.family_name ? { family_name: user.family_name } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(SESSION_ISSUER)
      .setAudience(SESSION_AUDIENCE)
      .setSubject(user.id)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(this.#key);
    return { token, expiresAt: new Date(exp * 1000) };
  }

  /** Returns the user id the token was issued to. */
  async verify(token: string): Promise<string> {
    return (await this.verifySession(token)).userId;
  }

  /** The user id and the time of the sign-in the token descends from (older tokens: their iat). */
  async verifySession(token: string): Promise<{ userId: string; signedInAt: Date }> {
    try {
      const { payload } = await jwtVerify(token, this.#key, {
        algorithms: ['HS256'],
        issuer: SESSION_ISSUER,
        audience: SESSION_AUDIENCE,
        requiredClaims: ['sub', 'exp'],
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') throw new UnauthorizedError('Invalid token');
      const signedIn = typeof payload.auth_time === 'number' ? payload.auth_time : (payload.iat ?? 0);
      return { userId: payload.sub, signedInAt: new Date(signedIn * 1000) };
    } catch (error) {
      throw toUnauthorized(error);
    }
  }
}

/** Maps jose's failures to a 401 with a short, honest reason. */
export function toUnauthorized(error: unknown): UnauthorizedError {
  if (error instanceof UnauthorizedError) return error;
  if (error instanceof errors.JWTExpired) return new UnauthorizedError('Token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    return new UnauthorizedError(`Invalid token: ${error.claim} claim check failed`);
  }
  return new UnauthorizedError('Invalid token');
}
