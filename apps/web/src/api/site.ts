import { useQuery } from '@tanstack/react-query';
import type { PublicSite } from '@guji/shared';
import { api } from './client.ts';

export const siteQueryKey = ['site'] as const;

export const siteQuery = {
  queryKey: siteQueryKey,
  queryFn: () => api.get<PublicSite>('/api/site'),
  staleTime: 10 * 60_000,
};

/** Site texts (name, footer, introduction) and the registration switch, from GET /api/site. */
export function useSiteSettings() {
  return useQuery(siteQuery);
}
