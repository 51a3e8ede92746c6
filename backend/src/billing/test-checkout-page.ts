// The test-mode checkout page: server-rendered HTML standing in for Stripe Checkout when no Stripe keys are
// set outside production. Plain forms, no script, so it works in any browser and in tests.
import type { CreditPack } from '@folio/shared';
import type { CheckoutStatus } from './billing.tables.js';

export const TEST_MODE_BANNER = 'Test mode — no card is charged';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

const STYLE = `
  body { font-family: system-ui, sans-serif; background: #f4f5f7; color: #1f2937; margin: 0; }
  main { max-width: 420px; margin: 64px auto; background: #fff; border-radius: 12px; padding: 32px;
         box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  .banner { background: #fef3c7; color: #92400e; border: 1px solid #f59e0b; border-radius: 8px;
            padding: 8px 12px; font-weight: 600; text-align: center; margin-bottom: 24px; }
  h1 { font-size: 1.25rem; margin: 0 0 16px; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: 8px 16px; margin: 0 0 24px; }
  dt { color: #6b7280; } dd { margin: 0; font-weight: 600; text-align: right; }
  .actions { display: flex; gap: 12px; } form { flex: 1; margin: 0; }
  button { width: 100%; padding: 12px; border-radius: 8px; font-size: 1rem; cursor: pointer; border: 1px solid #d1d5db; }
  .pay { background: #4f46e5; color: #fff; border-color: #4f46e5; } .cancel { background: #fff; }
  p.note { color: #6b7280; font-size: .875rem; margin-top: 16px; }
`;

export function renderTestCheckoutPage(view: {
  sessionId: string;
  pack: CreditPack;
  status: CheckoutStatus;
  actionBase: string;
}): string {
  const { pack, status } = view;
  const base = `${view.actionBase}/${encodeURIComponent(view.sessionId)}`;
  const paid = status === 'fulfilled';
  const statusNote = paid
    ? '<p class="note">This checkout is already paid. Paying again does not add credits twice.</p>'
    : status === 'canceled'
      ? '<p class="note">This checkout was canceled. You can still pay it.</p>'
      : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Test checkout — ${escapeHtml(pack.name)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<div class="banner" role="status">${TEST_MODE_BANNER}</div>
<h1>Checkout</h1>
<dl>
<dt>Package</dt><dd data-testid="pack">${escapeHtml(pack.name)}</dd>
<dt>Credits</dt><dd data-testid="credits">${pack.credits} credits</dd>
<dt>Price</dt><dd data-testid="price">${formatUsd(pack.priceCents)} USD</dd>
</dl>
<div class="actions">
<form method="post" action="${escapeHtml(base)}/cancel"><button class="cancel" type="submit">Cancel</button></form>
<form method="post" action="${escapeHtml(base)}/pay"><button class="pay" type="submit">Pay ${formatUsd(pack.priceCents)}</button></form>
</div>
${statusNote}
<p class="note">Stripe is not configured on this server, so this page stands in for the card payment. Paying runs the same fulfilment as a real payment.</p>
</main>
</body>
</html>
`;
}

export function renderTestCheckoutError(message: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test checkout</title><style>${STYLE}</style></head>
<body><main><div class="banner" role="status">${TEST_MODE_BANNER}</div><h1>${escapeHtml(message)}</h1>
<p class="note"><a href="/dashboard">Back to the dashboard</a></p></main></body></html>
`;
}
