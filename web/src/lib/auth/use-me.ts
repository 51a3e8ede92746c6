// The signed-in user's profile and balance (GET /users/me), as server state.
import { useQuery } from '@tanstack/react-query';
import { getApi, unwrap } from '../../api/client.js';
import { queryKeys, type MeData } from '../query-client.js';
import { useAuth } from './auth-store.js';

export function useMe() {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  return useQuery<MeData>({
    queryKey: queryKeys.me,
    queryFn: () => unwrap(getApi().GET('/users/me')),
    enabled: isAuthenticated,
  });
}
