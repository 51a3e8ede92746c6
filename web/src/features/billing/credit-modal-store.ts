// Whether the credit package modal is open, and why (the credits:insufficient message, if any).
import { createStore } from '../../lib/store.js';

export interface CreditModalState {
  open: boolean;
  reason?: string;
}

export const creditModalStore = createStore<CreditModalState>({ open: false });

export function openCreditModal(reason?: string): void {
  creditModalStore.setState({ open: true, reason });
}

export function closeCreditModal(): void {
  creditModalStore.setState({ open: false });
}
