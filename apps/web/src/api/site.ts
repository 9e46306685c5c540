import { useQuery } from '@tanstack/react-query';
import { siteApi } from '@guji/shared';
import { call } from './client.ts';

export const siteQueryKey = ['site'] as const;

export const siteQuery = {
  queryKey: siteQueryKey,
  queryFn: () => call(siteApi.get, {}),
  staleTime: 10 * 60_000,
};

/** Site texts (name, footer, introduction) and the registration switch, from GET /api/site. */
export function useSiteSettings() {
  return useQuery(siteQuery);
}
