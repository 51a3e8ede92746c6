// User extraction from a Google ID token (spec §5): valid only with both a subject and an email.
import { decodeJwt } from '../jwt.js';
import type { User } from '../../api/types.js';

export function extractUserFromCredential(credential: string): User | null {
  try {
    const payload = decodeJwt(credential);
    if (!payload || typeof payload.sub !== 'string' || typeof payload.email !== 'string') return null;
    return {
      id: payload.sub,
      email: payload.email,
      name: typeof payload.name === 'string' ? payload.name : payload.email,
      given_name: typeof payload.given_name === 'string' ? payload.given_name : null,
      family_name: typeof payload.family_name === 'string' ? payload.family_name : null,
    };
  } catch (error) {
    console.error('Error extracting user from credential:', error);
    return null;
  }
}
