// Server state lives in TanStack Query; these keys are shared by every feature that reads or refreshes it.
import { QueryClient } from '@tanstack/react-query';

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

export interface MeData {
  id: string;
  email: string;
  name: string;
  credits_remaining?: number;
}

/** Realtime events and sign-in answers carry the balance; they write it here. */
export function setCreditsRemaining(credits: number): void {
  queryClient.setQueryData<MeData>(queryKeys.me, (prev) =>
    prev ? { ...prev, credits_remaining: credits } : prev,
  );
}
