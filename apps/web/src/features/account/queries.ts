import { useId } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  apiTokensApi,
  authApi,
  profileApi,
  type ChangePasswordRequest,
  type CreateApiTokenRequest,
  type LoginRequest,
  type RegisterRequest,
  type ResetPasswordRequest,
  type SendCodeRequest,
  type SessionInfo,
  type SessionUser,
  type SsoRequest,
  type UpdateProfileRequest,
  type VerifyCodeRequest,
} from '@guji/shared';
import { call } from '../../api/client.ts';

export const sessionQueryKey = ['session'] as const;

export const sessionQuery = {
  queryKey: sessionQueryKey,
  queryFn: () => call(authApi.session, {}),
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
    queryFn: () => call(authApi.captcha, {}),
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
    mutationFn: (body: LoginRequest) => call(authApi.login, { body }, { ignoreUnauthorized: true }),
  });
}

export function useLogout() {
  return useMutation({ mutationFn: () => call(authApi.logout, {}) });
}

export function useRegister() {
  return useMutation({ mutationFn: (body: RegisterRequest) => call(authApi.register, { body }) });
}

export function useSendSmsCode() {
  return useMutation({
    mutationFn: (body: SendCodeRequest) => call(authApi.sendSmsCode, { body }),
  });
}

export function useVerifyRecoveryCode() {
  return useMutation({
    mutationFn: (body: VerifyCodeRequest) => call(authApi.verifyRecoveryCode, { body }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => call(authApi.resetPassword, { body }),
  });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => call(profileApi.changePassword, { body }),
  });
}

/** Saves one profile field. Quiet: the caller words the failure per field (spec §8). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => call(profileApi.update, { body }, { quiet: true }),
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
      return call(profileApi.uploadAvatar, { body: form }, { quiet: true });
    },
    onSuccess: (user) => setSessionUser(queryClient, user),
  });
}

export function useSsoLogin() {
  return useMutation({
    mutationFn: (body: SsoRequest) => call(authApi.sso, { body }, { ignoreUnauthorized: true }),
  });
}

export const apiTokensKey = ['api-tokens'] as const;

/** The reader's personal API tokens (names and prefixes; never the secrets). */
export function useApiTokens() {
  return useQuery({ queryKey: apiTokensKey, queryFn: () => call(apiTokensApi.list, {}, { quiet: true }) });
}

/** A new token: its secret is in this answer only. */
export const createApiToken = (body: CreateApiTokenRequest) =>
  call(apiTokensApi.create, { body }, { quiet: true });
export const revokeApiToken = (tokenId: number) => call(apiTokensApi.revoke, { params: { tokenId } });
