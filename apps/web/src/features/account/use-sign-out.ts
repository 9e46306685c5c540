import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { MSG } from '@guji/shared';
import { toast } from '../../components/toast.ts';
import { clearSession, useLogout } from './queries.ts';

/** Logs out (POST /api/auth/logout), says so, and goes home (spec §2 personal area, §8). */
export function useSignOut() {
  const logout = useLogout();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return {
    signOut: () =>
      logout.mutate(undefined, {
        onSuccess: () => {
          toast.success(MSG.logoutSuccess);
          void navigate('/');
          clearSession(queryClient);
        },
      }),
    isPending: logout.isPending,
  };
}
