// A local stand-in for Google's key endpoint: an HTTP server publishing a JSON Web Key Set, and a minter
// of Google-shaped ID tokens (valid ones and every kind of bad one the backend must refuse).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload } from 'jose';

export const TEST_GOOGLE_CLIENT_ID = 'folio-test.apps.googleusercontent.com';
export const TEST_GOOGLE_ISSUER = 'https://accounts.google.com';

export type TokenVariant =
  | 'valid'
  | 'expired'
  | 'wrong-audience'
  | 'wrong-issuer'
  | 'tampered'
  | 'alg-none'
  | 'unknown-kid'
  | 'hs256-public-key'
  | 'unverified-email'
  | 'no-email';

export interface GoogleClaims {
  sub: string;
  email?: string;
  name?: string;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
}

interface SigningKey {
  kid: string;
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  publicJwk: JWK;
  spki: string;
}

async function newKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return { kid, privateKey, publicJwk, spki: await exportSPKI(publicKey) };
}

const base64url = (value: object | string): string =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

export class FakeGoogle {
  /** Number of key-set downloads served, to observe caching and refetching. */
  fetches = 0;
  #published: SigningKey[] = [];
  #unpublished: SigningKey | undefined;
  #server: Server | undefined;
  #url = '';

  static async start(): Promise<FakeGoogle> {
    const google = new FakeGoogle();
    google.#published = [await newKey('test-key-1')];
    google.#unpublished = await newKey('never-published');
    google.#server = createServer((request, response) => {
      if (request.url !== '/oauth2/v3/certs') {
        response.writeHead(404).end();
        return;
      }
      google.fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ keys: google.#published.map((key) => key.publicJwk) }));
    });
    await new Promise<void>((resolve) => google.#server!.listen(0, '127.0.0.1', resolve));
    const { port } = google.#server.address() as AddressInfo;
    google.#url = `http://127.0.0.1:${port}/oauth2/v3/certs`;
    return google;
  }

  get jwksUrl(): string {
    return this.#url;
  }

  /** Google rotates keys: publish a new one (the old one stays published too) and sign with it. */
  async rotate(kid: string): Promise<void> {
    this.#published = [await newKey(kid), ...this.#published];
  }

  async mint(claims: GoogleClaims, variant: TokenVariant = 'valid'): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const payload: JWTPayload = {
      iss: variant === 'wrong-issuer' ? 'https://evil.example' : TEST_GOOGLE_ISSUER,
      aud: variant === 'wrong-audience' ? 'someone-else.apps.googleusercontent.com' : TEST_GOOGLE_CLIENT_ID,
      sub: claims.sub,
      email: variant === 'no-email' ? undefined : (claims.email ?? `${claims.sub}@example.com`),
      email_verified: variant === 'unverified-email' ? false : (claims.email_verified ?? true),
      name: claims.name,
      given_name: claims.given_name,
      family_name: claims.family_name,
      iat: variant === 'expired' ? now - 7200 : now,
      exp: variant === 'expired' ? now - 3600 : now + 3600,
    };
    const key = this.#published[0]!;
    if (variant === 'alg-none') {
      return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
    }
    if (variant === 'hs256-public-key') {
      // The classic confusion attack: HMAC-sign with the RSA public key as if it were a shared secret.
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
        .sign(new TextEncoder().encode(key.spki));
    }
    const signer = variant === 'unknown-kid' ? this.#unpublished! : key;
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: signer.kid, typ: 'JWT' })
      .sign(signer.privateKey);
    if (variant !== 'tampered') return token;
    const [header, , signature] = token.split('.');
    return `${header}.${base64url({ ...payload, email: 'attacker@example.com' })}.${signature}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }
}
