// Verifies Google ID tokens against Google's published key set (GOOGLE_JWKS_URL; tests serve their own).
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { ServiceUnavailableError, UnauthorizedError } from '../errors.js';
import { toUnauthorized } from './session-tokens.js';

export interface GoogleIdentity {
  sub: string;
  email: string;
  name: string;
  given_name: string | null;
  family_name: string | null;
}

export interface GoogleVerifier {
  verify(idToken: string): Promise<GoogleIdentity>;
}

export interface GoogleVerifierOptions {
  clientId: string;
  jwksUrl: string;
  issuers: readonly string[];
  /** Minimum time between two key-set fetches triggered by an unknown key id. */
  cooldownMs?: number;
}

const optionalString = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

export class JoseGoogleVerifier implements GoogleVerifier {
  readonly #jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(private readonly options: GoogleVerifierOptions) {
    // The key set is cached; a token signed with a key id not in the cache triggers one refetch
    // (Google rotates its keys), rate-limited by the cooldown.
    this.#jwks = createRemoteJWKSet(new URL(options.jwksUrl), {
      cooldownDuration: options.cooldownMs ?? 30_000,
      cacheMaxAge: 60 * 60 * 1000,
      timeoutDuration: 5_000,
    });
  }

  async verify(idToken: string): Promise<GoogleIdentity> {
    if (this.options.clientId === '') throw new UnauthorizedError('Google sign-in is not configured');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, this.#jwks, {
        algorithms: ['RS256'],
        audience: this.options.clientId,
        issuer: [...this.options.issuers],
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      if (error instanceof errors.JWKSTimeout || isNetworkFailure(error)) {
        throw new ServiceUnavailableError('Google sign-in keys are unavailable, please try again later');
      }
      throw toUnauthorized(error);
    }
    const sub = optionalString(payload.sub);
    const email = optionalString(payload.email);
    if (!sub || !email) throw new UnauthorizedError('Invalid token: subject and email are required');
    if (payload.email_verified !== true && payload.email_verified !== 'true') {
      throw new UnauthorizedError('Google account email is not verified');
    }
    return {
      sub,
      email: email.toLowerCase(),
      name: optionalString(payload.name) ?? email,
      given_name: optionalString(payload.given_name),
      family_name: optionalString(payload.family_name),
    };
  }
}

function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /fetch failed/i.test(error.message);
}
