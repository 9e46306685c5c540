/** The public API page's data: the limits the API states for whoever asks (GET /api/v1/whoami). */
import { useQuery } from '@tanstack/react-query';
import { publicApi } from '@guji/shared';
import { call } from '../../api/client.ts';

export const publicApiKeys = { limits: ['public-api-limits'] as const };

/** What the public API allows this visitor (anonymous or by token), read once. */
export function usePublicApiLimits() {
  return useQuery({
    queryKey: publicApiKeys.limits,
    queryFn: () => call(publicApi.whoami, {}, { quiet: true }),
    staleTime: Infinity,
  });
}
