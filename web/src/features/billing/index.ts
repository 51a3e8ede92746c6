// The billing feature's public face for other features (the landing page's prices).
export { TIER_CLAIMS, formatPrice } from './pricing.js';
