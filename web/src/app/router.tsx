// Routes of spec §2.
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { AuthCallbackPage } from '../features/auth/components/AuthCallbackPage.js';
import { PublicOnly, RequireAuth } from '../features/auth/components/RouteGuards.js';
import { BillingCancelPage, BillingSuccessPage } from '../features/billing/components/BillingResultPage.js';
import { DashboardPage } from '../features/dashboard/DashboardPage.js';
import { LandingPage } from '../features/landing/LandingPage.js';
import { AppLayout } from './layout/AppLayout.js';

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        path: '/',
        element: (
          <PublicOnly>
            <LandingPage />
          </PublicOnly>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireAuth>
            <DashboardPage />
          </RequireAuth>
        ),
      },
      {
        path: '/dashboard/billing/success',
        element: (
          <RequireAuth>
            <BillingSuccessPage />
          </RequireAuth>
        ),
      },
      {
        path: '/dashboard/billing/cancel',
        element: (
          <RequireAuth>
            <BillingCancelPage />
          </RequireAuth>
        ),
      },
      { path: '/auth/callback', element: <AuthCallbackPage /> },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
