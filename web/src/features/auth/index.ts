// The auth feature's public face for other features (the landing page's sign-in).
export { DevLoginForm } from './components/DevLoginForm.js';
export { GoogleSignInButton } from './components/GoogleSignInButton.js';
