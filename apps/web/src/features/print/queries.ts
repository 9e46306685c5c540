import type { Paged } from '@guji/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAY_POLL_MS,
  type AdminPrintSummary,
  type CheckoutRequest,
  type Notification,
  type OkBody,
  type PrintItem,
  type PrintOrder,
  type PrintPrice,
  type SandboxPaymentInfo,
  type ScanPayment,
} from '@guji/shared';
import { api } from '../../api/client.ts';

export const printKeys = {
  all: ['print'] as const,
  items: (tab: string, pageNum: number) => ['print', 'items', tab, pageNum] as const,
  order: (orderNum: string) => ['print', 'order', orderNum] as const,
  status: (orderNum: string) => ['print', 'status', orderNum] as const,
  desk: ['print-desk'] as const,
};

export function usePrices() {
  return useQuery({
    queryKey: ['print-prices'],
    queryFn: () => api.get<PrintPrice[]>('/api/print/prices'),
    staleTime: 60_000,
  });
}

export function usePrintItems(tab: 'all' | 'unpaid', pageNum: number) {
  return useQuery({
    queryKey: printKeys.items(tab, pageNum),
    queryFn: () => api.get<Paged<PrintItem>>(`/api/print/items?tab=${tab}&pageNum=${pageNum}`),
    placeholderData: keepPreviousData,
  });
}

/** Adds the current page or a page range to the print list (from the reader). */
export function useAddPrintItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { imageId: number } | { fascicleId: number; from: number; to: number }) =>
      api.post<{ added: number; message: string }>('/api/print/items', body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useDeletePrintItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<OkBody>('/api/print/items/delete', { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CheckoutRequest) => api.post<PrintOrder>('/api/print/orders', request),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useStartScan() {
  return useMutation({
    mutationFn: (orderNum: string) => api.post<ScanPayment>(`/api/print/orders/${orderNum}/scan`),
  });
}

/** Asks every 2 s whether the order is paid (spec §4), until it is. */
export function usePayStatus(orderNum: string | null) {
  return useQuery({
    queryKey: printKeys.status(orderNum ?? ''),
    queryFn: () =>
      api.get<{ data: 'paid' | 'unpaid' }>(`/api/print/orders/${orderNum}/pay-status`, { quiet: true }),
    enabled: orderNum !== null,
    refetchInterval: (query) => (query.state.data?.data === 'paid' ? false : PAY_POLL_MS),
  });
}

export function useOrder(orderNum: string) {
  return useQuery({
    queryKey: printKeys.order(orderNum),
    queryFn: () => api.get<PrintOrder>(`/api/print/orders/${orderNum}`),
  });
}

export function useSandboxPayment(tradeNo: string, sig: string) {
  return useQuery({
    queryKey: ['sandbox-payment', tradeNo],
    queryFn: () =>
      api.get<SandboxPaymentInfo>(`/api/payments/sandbox/${tradeNo}?sig=${encodeURIComponent(sig)}`),
  });
}

export interface DeskFilters {
  realName?: string;
  phone?: string;
  email?: string;
  extract?: '0' | '1';
}

export function useDeskSummary(filters: DeskFilters, pageNum: number) {
  const params = new URLSearchParams({ pageNum: String(pageNum) });
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value as string);
  return useQuery({
    queryKey: [...printKeys.desk, 'summary', params.toString()],
    queryFn: () => api.get<Paged<AdminPrintSummary>>(`/api/admin/print/orders?${params.toString()}`),
    placeholderData: keepPreviousData,
  });
}

export function useDeskItems(orderNum: string) {
  return useQuery({
    queryKey: [...printKeys.desk, 'items', orderNum],
    queryFn: () => api.get<PrintItem[]>(`/api/admin/print/orders/${orderNum}/items`),
  });
}

export function useNotifications() {
  return useQuery({
    queryKey: [...printKeys.desk, 'notifications'],
    queryFn: () => api.get<Notification[]>('/api/admin/notifications'),
    refetchInterval: 10_000,
  });
}

/** The desk's batch actions; afterwards the desk's lists are read again. */
export function useDeskAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      action,
      ids,
      expressNumber,
    }: {
      action: 'confirm-payment' | 'printed' | 'express';
      ids: number[];
      expressNumber?: string;
    }) =>
      api.post<{ message?: string; pdfUrl?: string; pages?: number }>(`/api/admin/print/items/${action}`, {
        ids,
        ...(action === 'express' ? { expressNumber: expressNumber ?? '' } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.desk }),
  });
}
