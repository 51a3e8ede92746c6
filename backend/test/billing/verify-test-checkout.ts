// Checks the test-mode purchase against a running Folio (e.g. `make run`), as a user's browser would do it:
//   node --import tsx backend/test/billing/verify-test-checkout.ts [http://127.0.0.1:8000]
// Signs in (development sign-in), opens the test-mode checkout for power100, submits Pay twice, follows the
// redirect to the success page and prints the balance before and after. Exits 1 when anything is off.
const base = (process.argv[2] ?? 'http://127.0.0.1:8000').replace(/\/+$/, '');

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(message);
  console.log(`ok   ${message}`);
}

const email = `verify-${Date.now()}@example.com`;
const login = await json<{ token: string }>(
  await fetch(`${base}/api/v1/auth/dev-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, name: 'Checkout Verifier' }),
  }),
);
const auth = { authorization: `Bearer ${login.token}` };
await json(await fetch(`${base}/api/v1/users/register`, { method: 'POST', headers: auth }));
const balance = async () =>
  (await json<{ credits_remaining: number }>(await fetch(`${base}/api/v1/users/me`, { headers: auth })))
    .credits_remaining;
const before = await balance();
console.log(`user ${email}: ${before} credits before`);

const { url } = await json<{ url: string }>(
  await fetch(`${base}/api/v1/billing/checkout/session`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ packKey: 'power100', currency: 'USD' }),
  }),
);
console.log(`checkout url: ${url}`);
const page = await fetch(url);
const html = await page.text();
check(page.status === 200, 'test-mode checkout page answers 200');
check(html.includes('Test mode — no card is charged'), 'page says "Test mode — no card is charged"');
check(
  html.includes('Power 100') && html.includes('$59.99') && html.includes('100 credits'),
  'page shows pack, price, credits',
);

const payAction = /action="([^"]+\/pay)"/.exec(html)?.[1];
if (!payAction) throw new Error('no Pay form on the page');
let location = '';
for (const attempt of [1, 2]) {
  const paid = await fetch(new URL(payAction, url), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    redirect: 'manual',
  });
  location = paid.headers.get('location') ?? '';
  check(paid.status === 303, `Pay #${attempt} answers 303 -> ${location}`);
}
check(
  new URL(location).pathname === '/dashboard/billing/success',
  'redirect goes to /dashboard/billing/success',
);
const success = await fetch(location);
check(success.status === 200, `success page answers ${success.status}`);

const after = await balance();
console.log(`${after} credits after (${after - before >= 0 ? '+' : ''}${after - before})`);
check(after - before === 100, 'exactly 100 credits added although Pay was submitted twice');
