// A local stand-in for Google's sign-in edge: an RSA key set served over HTTP (the backend's
// GOOGLE_JWKS_URL), ID tokens signed with that key, and a small Identity Services script that the
// browser loads instead of Google's (Playwright routes the script URL to it).
import { createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';

export const GIS_ORIGIN = 'https://accounts.google.com';
export const TEST_CLIENT_ID = 'folio-e2e.apps.googleusercontent.com';

export interface GoogleAccount {
  sub: string;
  email: string;
  name: string;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export class GoogleStandIn {
  readonly kid = 'e2e-key-1';
  readonly #privateKey: KeyObject;
  readonly #publicJwk: Record<string, unknown>;
  #server?: Server;
  /** The account the next sign-in click returns. */
  account: GoogleAccount = {
    sub: 'g-100',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    given_name: 'Ada',
    family_name: 'Lovelace',
  };

  constructor() {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.#privateKey = createPrivateKey(privateKey.export({ format: 'pem', type: 'pkcs8' }));
    this.#publicJwk = { ...publicKey.export({ format: 'jwk' }), kid: this.kid, alg: 'RS256', use: 'sig' };
  }

  /** Starts the key-set server; returns its URL for GOOGLE_JWKS_URL. */
  async start(): Promise<string> {
    this.#server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [this.#publicJwk] }));
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    return `http://127.0.0.1:${port}/certs`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  idToken(account: GoogleAccount = this.account): string {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url({ alg: 'RS256', typ: 'JWT', kid: this.kid });
    const payload = b64url({
      iss: GIS_ORIGIN,
      aud: TEST_CLIENT_ID,
      azp: TEST_CLIENT_ID,
      iat: now,
      exp: now + 3600,
      email_verified: true,
      ...account,
    });
    const signature = sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), this.#privateKey).toString(
      'base64url',
    );
    return `${header}.${payload}.${signature}`;
  }

  /** Serves the stand-in script and tokens for every page of the context; other outside URLs fail. */
  async install(context: BrowserContext): Promise<void> {
    await context.route(`${GIS_ORIGIN}/**`, async (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/gsi/client') {
        await route.fulfill({ contentType: 'text/javascript', body: GIS_SCRIPT });
      } else if (url.pathname === '/gsi/e2e-token') {
        await route.fulfill({
          contentType: 'text/plain',
          headers: { 'access-control-allow-origin': '*' },
          body: this.idToken(),
        });
      } else {
        await route.abort();
      }
    });
  }
}

/** The subset of google.accounts.id the app uses: initialize, renderButton, prompt, disableAutoSelect. */
const GIS_SCRIPT = `
(function () {
  var options = null;
  function issue(selectBy) {
    return fetch('${GIS_ORIGIN}/gsi/e2e-token')
      .then(function (r) { return r.text(); })
      .then(function (token) { options.callback({ credential: token, select_by: selectBy, clientId: options.client_id }); });
  }
  window.google = { accounts: { id: {
    initialize: function (o) { options = o; },
    renderButton: function (parent) {
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Sign in with Google';
      b.setAttribute('data-gis-standin', '');
      b.style.cssText = 'height:40px;padding:0 16px;border:1px solid #dadce0;border-radius:20px;background:#fff;color:#3c4043;font:500 14px system-ui';
      b.onclick = function () { issue('btn'); };
      parent.appendChild(b);
    },
    prompt: function () { issue('auto'); },
    disableAutoSelect: function () {},
    cancel: function () {}
  } } };
})();
`;
