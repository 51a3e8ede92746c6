// Auth state of spec §3: user, token, isAuthenticated, isLoading, error.
import { createStore, useStore } from '../store.js';

export interface User {
  id: string;
  email: string;
  name: string;
  given_name?: string | null;
  family_name?: string | null;
}

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
