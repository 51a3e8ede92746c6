// Auth state of spec §3: user, token, isAuthenticated, isLoading, error.
import type { User } from '../../api/types.js';
import { createStore, useStore } from '../store.js';

export interface AuthState {
  user: User | null;
  token: string | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  error: string | null;
}

export const signedOut: AuthState = {
  user: null,
  token: null,
  isAuthenticated: false,
  isLoading: false,
  error: null,
};

/** Loading until the initial auth check has read the stored session. */
export const authStore = createStore<AuthState>({ ...signedOut, isLoading: true });

export function useAuth<S>(select: (state: AuthState) => S): S {
  return useStore(authStore, select);
}
