// Server state lives in TanStack Query; these keys are shared by every feature that reads or refreshes it.
import { QueryClient } from '@tanstack/react-query';
import type { Answer } from '../api/types.js';

export const queryKeys = {
  me: ['users', 'me'] as const,
  files: ['files'] as const,
};

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
  });
}

export const queryClient = createQueryClient();

/**
 * The cached profile: GET /users/me's answer, or, right after sign-in, the part of it the sign-in answer carries
 * (id, email, name, credits).
 */
export type MeData = Pick<Answer<'getMe'>, 'id' | 'email' | 'name'> & Partial<Answer<'getMe'>>;

/** Realtime events and sign-in answers carry the balance; they write it here. */
export function setCreditsRemaining(credits: number): void {
  queryClient.setQueryData<MeData>(queryKeys.me, (prev) =>
    prev ? { ...prev, credits_remaining: credits } : prev,
  );
}
