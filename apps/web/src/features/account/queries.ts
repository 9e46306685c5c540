import { useId } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  Captcha,
  ChangePasswordRequest,
  LoginRequest,
  LoginResponse,
  OkBody,
  RegisterRequest,
  ResetPasswordRequest,
  SendCodeRequest,
  SendCodeResponse,
  SessionInfo,
  SessionUser,
  SsoRequest,
  UpdateProfileRequest,
  VerifyCodeRequest,
} from '@guji/shared';
import { api } from '../../api/client.ts';

export const sessionQueryKey = ['session'] as const;

export const sessionQuery = {
  queryKey: sessionQueryKey,
  queryFn: () => api.get<SessionInfo>('/api/session'),
  staleTime: 60_000,
};

/** Who is signed in and whether this is the reading room (GET /api/session). */
export function useSession() {
  return useQuery(sessionQuery);
}

/** Replaces the cached user (after login, a profile change or sign-out) without waiting for a refetch. */
export function setSessionUser(queryClient: QueryClient, user: SessionUser | null): void {
  queryClient.setQueryData<SessionInfo>(sessionQueryKey, (old) => ({
    user,
    readingRoom: old?.readingRoom ?? false,
  }));
}

/** Forgets the signed-in user locally; the session cookie is the server's to revoke. */
export function clearSession(queryClient: QueryClient): void {
  setSessionUser(queryClient, null);
}

/** Stores the user a sign-in returned, then re-reads the session for the rest of its fields. */
export function acceptSignIn(queryClient: QueryClient, user: SessionUser): void {
  setSessionUser(queryClient, user);
  void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
}

/**
 * An image captcha of its own for each form that uses one. It renews itself when it expires;
 * `refresh` fetches a new one (after every attempt that consumed it).
 */
export function useCaptcha(enabled = true) {
  const id = useId();
  const query = useQuery({
    queryKey: ['captcha', id],
    queryFn: () => api.get<Captcha>('/api/captcha'),
    enabled,
    gcTime: 0,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchInterval: (q) => (q.state.data ? q.state.data.expiresInSeconds * 1000 : false),
  });
  return {
    captcha: query.data,
    isFetching: query.isFetching,
    refresh: () => void query.refetch(),
  };
}

export type CaptchaState = ReturnType<typeof useCaptcha>;

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      api.post<LoginResponse>('/api/auth/login', body, { ignoreUnauthorized: true }),
  });
}

export function useLogout() {
  return useMutation({ mutationFn: () => api.post<OkBody>('/api/auth/logout') });
}

export function useRegister() {
  return useMutation({ mutationFn: (body: RegisterRequest) => api.post<OkBody>('/api/auth/register', body) });
}

export function useSendSmsCode() {
  return useMutation({
    mutationFn: (body: SendCodeRequest) => api.post<SendCodeResponse>('/api/sms/send', body),
  });
}

export function useVerifyRecoveryCode() {
  return useMutation({
    mutationFn: (body: VerifyCodeRequest) => api.post<OkBody>('/api/auth/recovery/verify', body),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api.post<OkBody>('/api/auth/recovery/reset', body),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => api.post<OkBody>('/api/me/password', body),
  });
}

/** Saves one profile field. Quiet: the caller words the failure per field (spec §8). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => api.patch<SessionUser>('/api/me', body, { quiet: true }),
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}

/** Uploads a new avatar. Quiet: the caller shows the avatar failure text. */
export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.upload<SessionUser>('/api/me/avatar', form, { quiet: true });
    },
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}

export function useSsoLogin() {
  return useMutation({
    mutationFn: (body: SsoRequest) =>
      api.post<LoginResponse>('/api/auth/sso', body, { ignoreUnauthorized: true }),
  });
}
