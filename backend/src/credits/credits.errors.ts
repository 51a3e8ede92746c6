import { PaymentRequiredError } from '../errors.js';

/** A debit larger than the balance. Carries the figures so callers and clients can explain it. */
export class InsufficientCreditsError extends PaymentRequiredError {
  override name = 'InsufficientCreditsError';
  constructor(
    readonly needed: number,
    readonly available: number,
  ) {
    super(
      `You need ${needed} credit(s) but only have ${available}. Please purchase more credits to continue.`,
    );
  }
}
