// Who is signed in: GET /v1/auth/session (also hands back the CSRF token after a reload).
import { createContext, useContext } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiFailure, currentTeam, ok, setCsrfToken, setTeam } from './api/client';
import { takeEarlySession } from './boot';

export interface Me {
  email: string;
  role: string;
  team_id: string;
  user_id: number;
  /** Owner and Admin may change things; the others only read. */
  canManage: boolean;
}

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async (): Promise<Me> => {
    let s;
    try {
      // The first time: the answer boot.ts asked for while the console was loading.
      const early = takeEarlySession(currentTeam());
      s = await ok(api.GET('/v1/auth/session', early ? { fetch: () => early } : {}));
    } catch (err) {
      // A remembered team the user is no longer in: back to their default team.
      if (!(err instanceof ApiFailure && err.status === 403 && currentTeam())) throw err;
      setTeam(undefined);
      s = await ok(api.GET('/v1/auth/session'));
    }
    setCsrfToken(s.csrf_token);
    return {
      email: s.email,
      role: s.role,
      team_id: s.team_id,
      user_id: s.user_id,
      canManage: s.role === 'OWNER' || s.role === 'ADMIN',
    };
  },
  retry: false,
  staleTime: 60_000,
});

export function useSessionQuery() {
  return useQuery(sessionQuery);
}

export const MeContext = createContext<Me | null>(null);

export function useMe(): Me {
  const me = useContext(MeContext);
  if (!me) throw new Error('useMe outside the signed-in layout');
  return me;
}
