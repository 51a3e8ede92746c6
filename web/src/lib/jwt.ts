// Client-side JWT payload decoding (no verification: the server verifies; the client only reads expiry
// and profile fields).
import { TOKEN_EXPIRY_MARGIN_S } from '@folio/shared';

export interface JwtPayload {
  sub?: string;
  email?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  exp?: number;
  [key: string]: unknown;
}

export function decodeJwt(token: string): JwtPayload | null {
  try {
    const part = token.split('.')[1];
    if (!part) throw new Error('Malformed token');
    const base64 = part
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(part.length / 4) * 4, '=');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const payload: unknown = JSON.parse(json);
    if (typeof payload !== 'object' || payload === null) throw new Error('Token payload is not an object');
    return payload as JwtPayload;
  } catch (error) {
    console.error('Error parsing JWT:', error);
    return null;
  }
}

/** Seconds until the token expires (negative when expired); null when it carries no expiry. */
export function secondsRemaining(payload: JwtPayload, nowMs: number = Date.now()): number | null {
  return typeof payload.exp === 'number' ? payload.exp - nowMs / 1000 : null;
}

/** Spec §9: a token with 60 s or less remaining counts as expired. */
export function isExpiring(payload: JwtPayload, nowMs: number = Date.now()): boolean {
  const left = secondsRemaining(payload, nowMs);
  return left !== null && left <= TOKEN_EXPIRY_MARGIN_S;
}
