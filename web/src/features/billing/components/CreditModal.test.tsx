import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, setApiForTests } from '../../../api/client.js';
import { json, startApi } from '../../../test/helpers.js';
import { closeCreditModal, openCreditModal } from '../credit-modal-store.js';
import { CreditModal } from './CreditModal.js';

describe('credit modal', () => {
  let api: Awaited<ReturnType<typeof startApi>>;
  let status = 200;
  let release: () => void = () => undefined;

  beforeEach(async () => {
    status = 200;
    api = await startApi((req, res) => {
      const answer = () =>
        json(res, status, status === 200 ? { url: 'http://pay.test/session/1' } : { detail: 'No Stripe' });
      if (req.path.endsWith('/billing/checkout/session')) {
        release = answer;
      } else json(res, 404, {});
    });
    setApiForTests(createApiClient({ baseUrl: api.url }));
  });
  afterEach(async () => {
    closeCreditModal();
    setApiForTests(undefined);
    vi.restoreAllMocks();
    await api.close();
  });

  it('shows the reason, defaults to essential10 and marks the middle pack Popular', async () => {
    render(<CreditModal redirect={() => undefined} />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => openCreditModal('You need 3 credit(s) but only have 1.'));
    const dialog = await screen.findByRole('dialog', { name: 'Select Credit Package' });
    expect(dialog).toHaveTextContent('You need 3 credit(s) but only have 1.');
    expect(screen.getByRole('radio', { name: /Essential 10/ })).toBeChecked();
    const popular = screen.getByText('Popular');
    expect(popular.closest('[data-pack]')).toHaveAttribute('data-pack', 'power100');
  });

  it('shows Processing... while the session is created, then redirects to its url', async () => {
    const redirect = vi.fn();
    render(<CreditModal redirect={redirect} />);
    act(() => openCreditModal());
    await userEvent.click(await screen.findByRole('radio', { name: /Power 100/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Proceed to Checkout' }));
    const busy = await screen.findByRole('button', { name: 'Processing...' });
    expect(busy).toBeDisabled();
    await waitFor(() => expect(api.requests).toHaveLength(1));
    expect(JSON.parse(api.requests[0]?.body ?? '')).toEqual({ packKey: 'power100', currency: 'USD' });
    release();
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('http://pay.test/session/1'));
  });

  it('alerts "Failed to start checkout. Please try again." when the session cannot be created', async () => {
    status = 500;
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    render(<CreditModal redirect={() => undefined} />);
    act(() => openCreditModal());
    await userEvent.click(await screen.findByRole('button', { name: 'Proceed to Checkout' }));
    await waitFor(() => expect(api.requests).toHaveLength(1));
    release();
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Failed to start checkout. Please try again.'));
    expect(screen.getByRole('button', { name: 'Proceed to Checkout' })).toBeEnabled();
  });

  it('closes on Escape and Cancel', async () => {
    render(<CreditModal redirect={() => undefined} />);
    act(() => openCreditModal());
    await screen.findByRole('dialog');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => openCreditModal());
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
