import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { createApiClient, setApiForTests } from '../api/client.js';
import { resetConfigForTests } from '../config/runtime.js';
import { closeCreditModal } from '../features/billing/credit-modal-store.js';
import { authStore, signedOut } from '../lib/auth/auth-store.js';
import { notificationStore } from '../lib/notifications.js';
import { queryClient } from '../lib/query-client.js';
import { STORAGE_KEYS } from '../lib/storage.js';
import { json, startApi } from '../test/helpers.js';
import { routes } from './router.js';

// The shell is tested on its own: the dashboard feature has its own tests and talks to more endpoints.
vi.mock('../features/dashboard/DashboardPage.js', () => ({ DashboardPage: () => <h1>Dashboard</h1> }));

const user = {
  id: 'u1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  given_name: null,
  family_name: null,
};

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('app shell', () => {
  let api: Awaited<ReturnType<typeof startApi>>;

  beforeEach(async () => {
    window.APP_NAME = 'Folio AI';
    window.GOOGLE_CLIENT_ID = '';
    resetConfigForTests();
    notificationStore.setState(null);
    queryClient.clear();
    authStore.setState(signedOut);
    api = await startApi((req, res) => json(res, 200, { ...user, credits_remaining: 7 }));
    setApiForTests(createApiClient({ baseUrl: api.url }));
  });
  afterEach(async () => {
    closeCreditModal();
    setApiForTests(undefined);
    delete window.APP_NAME;
    delete window.GOOGLE_CLIENT_ID;
    delete window.DEV_LOGIN_ENABLED;
    await api.close();
  });

  it('landing page has the product sections, anchors and footer', () => {
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    for (const id of ['example', 'features', 'pricing']) {
      expect(document.getElementById(id)).not.toBeNull();
      expect(
        within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', {
          name: new RegExp(id, 'i'),
        }),
      ).toHaveAttribute('href', `#${id}`);
    }
    expect(screen.getByText('AI-Powered Enhancement')).toBeInTheDocument();
    expect(screen.getByText('Secure & Private')).toBeInTheDocument();
    expect(screen.getByText('Lightning Fast')).toBeInTheDocument();
    expect(document.querySelectorAll('#pricing [data-pack]')).toHaveLength(3);
    expect(screen.getByText('Batch processing')).toBeInTheDocument();
    const video = document.querySelector('#example video');
    expect(video).toHaveAttribute('src', '/demo_video.mp4');
    expect(video).toHaveProperty('muted', true);
    expect(video).toHaveProperty('loop', true);
    expect(screen.getByRole('link', { name: 'Contact Us' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^mailto:/),
    );
    expect(screen.getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument();
  });

  it('without a Google client id the sign-in button is disabled with a setup hint', () => {
    renderAt('/');
    const buttons = screen.getAllByRole('button', { name: 'Google Login (Setup Required)' });
    expect(buttons.length).toBeGreaterThan(0);
    buttons.forEach((button) => expect(button).toBeDisabled());
    expect(screen.queryByRole('form', { name: 'Development sign-in' })).toBeNull();
  });

  it('offers the development sign-in form when the server enables it', () => {
    window.DEV_LOGIN_ENABLED = true;
    resetConfigForTests();
    renderAt('/');
    const form = screen.getByRole('form', { name: 'Development sign-in' });
    expect(within(form).getByLabelText('Email')).toBeInTheDocument();
    expect(within(form).getByLabelText('Name')).toBeInTheDocument();
  });

  it('redirects visitors away from signed-in pages and unknown paths', () => {
    for (const path of [
      '/dashboard',
      '/dashboard/billing/success',
      '/dashboard/billing/cancel',
      '/nowhere',
    ]) {
      const router = renderAt(path);
      expect(router.state.location.pathname).toBe('/');
      router.dispose();
    }
  });

  it('signed in: "/" goes to /dashboard; the header shows name, balance, Buy and Logout', async () => {
    authStore.setState({ ...signedOut, user, token: 't', isAuthenticated: true });
    const router = renderAt('/');
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(screen.getByTestId('user-name')).toHaveTextContent('Ada Lovelace');
    expect(await screen.findByText('7 credits')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Buy' })).toBeInTheDocument();
    act(() => screen.getByRole('button', { name: 'Logout' }).click());
    expect(authStore.getState().isAuthenticated).toBe(false);
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows the billing pages to a signed-in user', () => {
    authStore.setState({ ...signedOut, user, token: 't', isAuthenticated: true });
    renderAt('/dashboard/billing/success');
    expect(screen.getByText('Payment successful')).toBeInTheDocument();
    expect(screen.getByText('Your credits have been updated. You can close this page.')).toBeInTheDocument();
  });

  it('window events open the credit modal and show session notices; the stored notice shows on "/"', async () => {
    window.sessionStorage.setItem(STORAGE_KEYS.sessionNotice, 'Session expired. Please sign in again.');
    renderAt('/');
    expect(await screen.findByRole('status')).toHaveTextContent('Session expired. Please sign in again.');
    expect(window.sessionStorage.getItem(STORAGE_KEYS.sessionNotice)).toBeNull();
    act(() => {
      window.dispatchEvent(new CustomEvent('session:notice', { detail: { message: 'Heads up' } }));
    });
    expect(screen.getByTestId('notification')).toHaveAttribute('data-type', 'warning');
    expect(screen.getByTestId('notification')).toHaveTextContent('Heads up');
    act(() => {
      window.dispatchEvent(
        new CustomEvent('credits:insufficient', {
          detail: { message: 'You need 2 credit(s) but only have 0.' },
        }),
      );
    });
    expect(screen.getByRole('dialog', { name: 'Select Credit Package' })).toHaveTextContent(
      'You need 2 credit(s)',
    );
  });

  it('while auth loads the sign-in button becomes a spinner with "Signing you in..."', () => {
    authStore.setState({ ...signedOut, isLoading: true });
    renderAt('/');
    expect(screen.getAllByText('Signing you in...').length).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Google Login (Setup Required)' })).toBeNull();
  });

  it('/auth/callback shows its text while loading, then goes home when signed out', () => {
    authStore.setState({ ...signedOut, isLoading: true });
    const router = renderAt('/auth/callback');
    expect(screen.getByText('Processing authentication...')).toBeInTheDocument();
    act(() => authStore.setState(signedOut));
    expect(router.state.location.pathname).toBe('/');
  });
});
