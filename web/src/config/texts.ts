// Every user-visible text fixed by the product spec lives here, so tests and screens share one source.
export const TEXT = {
  sessionExpired: 'Session expired. Please sign in again.',
  maintenance: 'Service is currently under maintenance. Please try again later.',
  accessDenied: 'Access denied',
  networkError: 'Network Error',
  unexpectedError: 'An unexpected error occurred',
  checkoutFailed: 'Failed to start checkout. Please try again.',
  // §5 sign-in
  noCredential: 'No credential received from Google',
  googleCancelled: 'Google login was cancelled or failed',
  extractFailed: 'Failed to extract user information from Google credential',
  loginFailed: 'Login failed',
  googleSetupRequired: 'Google Login (Setup Required)',
  googleLoginFailed: 'Google login failed',
  // §8 auth
  silentReauthUnavailable: 'Silent reauth unavailable',
  silentReauthDismissed: 'Silent reauth dismissed',
  silentReauthTimeout: 'Silent reauth timeout',
  failedToParseCredential: 'Failed to parse credential',
  failedToRestoreAuth: 'Failed to restore auth state',
  failedToFetchProfile: 'Failed to fetch user profile',
  signingIn: 'Signing you in...',
  processingAuth: 'Processing authentication...',
  // §2 credit modal
  creditModalTitle: 'Select Credit Package',
  popular: 'Popular',
  cancel: 'Cancel',
  proceedToCheckout: 'Proceed to Checkout',
  processing: 'Processing...',
  // §2 billing pages
  paymentSuccessful: 'Payment successful',
  paymentSuccessfulBody: 'Your credits have been updated. You can close this page.',
  paymentCanceled: 'Payment canceled',
  paymentCanceledBody: 'Your payment was canceled. No changes were made to your credits.',
  // §2 features
  featureAi: 'AI-Powered Enhancement',
  featureSecure: 'Secure & Private',
  featureFast: 'Lightning Fast',
  // footer
  contactUs: 'Contact Us',
  privacyPolicy: 'Privacy Policy',
  termsOfService: 'Terms of Service',
  loading: 'Loading...',
} as const;

/** Login errors that mention maintenance get the product's maintenance text (spec §2 final CTA). */
export function loginErrorText(message: string): string {
  return /maintenance/i.test(message) ? TEXT.maintenance : message;
}
