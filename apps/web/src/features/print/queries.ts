import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  PAY_POLL_MS,
  printDeskApi,
  printItemsApi,
  printOrdersApi,
  printPricesApi,
  sandboxPaymentApi,
  type AddPrintItemsRequest,
  type AdminPrintQuery,
  type CheckoutRequest,
  type PrintedResult,
  type PrintPrice,
} from '@guji/shared';
import { call } from '../../api/client.ts';

export const printKeys = {
  all: ['print'] as const,
  items: (tab: string, pageNum: number) => ['print', 'items', tab, pageNum] as const,
  order: (orderNum: string) => ['print', 'order', orderNum] as const,
  status: (orderNum: string) => ['print', 'status', orderNum] as const,
  desk: ['print-desk'] as const,
  prices: ['print-prices'] as const,
};

export function usePrices() {
  return useQuery({
    queryKey: printKeys.prices,
    queryFn: () => call(printPricesApi.list, {}),
    staleTime: 60_000,
  });
}

/** Saves the price per page of each paper size (administrators). */
export function useSavePrices() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prices: PrintPrice[]) => call(printPricesApi.update, { body: { prices } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.prices }),
  });
}

/** The sandbox provider's answer on its payment page: pay or refuse (the signed notice goes to the webhook). */
export const confirmSandboxPayment = (tradeNo: string, sig: string, pay: boolean) =>
  call(sandboxPaymentApi.confirm, { params: { tradeNo }, body: { sig, pay } }, { quiet: true });

export function usePrintItems(tab: 'all' | 'unpaid', pageNum: number) {
  return useQuery({
    queryKey: printKeys.items(tab, pageNum),
    queryFn: () => call(printItemsApi.list, { query: { tab, pageNum } }),
    placeholderData: keepPreviousData,
  });
}

/** Adds the current page or a page range to the print list (from the reader). */
export function useAddPrintItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddPrintItemsRequest) => call(printItemsApi.add, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useDeletePrintItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => call(printItemsApi.remove, { body: { ids } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useCheckout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CheckoutRequest) => call(printOrdersApi.checkout, { body: request }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.all }),
  });
}

export function useStartScan() {
  return useMutation({
    mutationFn: (orderNum: string) => call(printOrdersApi.startScan, { params: { orderNum } }),
  });
}

/** Asks every 2 s whether the order is paid (spec §4), until it is. */
export function usePayStatus(orderNum: string | null) {
  return useQuery({
    queryKey: printKeys.status(orderNum ?? ''),
    queryFn: () => call(printOrdersApi.payStatus, { params: { orderNum: orderNum ?? '' } }, { quiet: true }),
    enabled: orderNum !== null,
    refetchInterval: (query) => (query.state.data?.data === 'paid' ? false : PAY_POLL_MS),
  });
}

export function useOrder(orderNum: string) {
  return useQuery({
    queryKey: printKeys.order(orderNum),
    queryFn: () => call(printOrdersApi.get, { params: { orderNum } }),
  });
}

export function useSandboxPayment(tradeNo: string, sig: string) {
  return useQuery({
    queryKey: ['sandbox-payment', tradeNo],
    queryFn: () => call(sandboxPaymentApi.info, { params: { tradeNo }, query: { sig } }),
  });
}

/** The desk's filters: the reader's real name, phone, email (substrings) and pickup. */
export type DeskFilters = Omit<AdminPrintQuery, 'pageNum'>;

export function useDeskSummary(filters: DeskFilters, pageNum: number) {
  const query = { ...filters, pageNum };
  return useQuery({
    queryKey: [...printKeys.desk, 'summary', query],
    queryFn: () => call(printDeskApi.orders, { query }),
    placeholderData: keepPreviousData,
  });
}

export function useDeskItems(orderNum: string) {
  return useQuery({
    queryKey: [...printKeys.desk, 'items', orderNum],
    queryFn: () => call(printDeskApi.items, { params: { orderNum } }),
  });
}

/** The desk's log of an order (who did what, when; the print files its “mark printed” made). */
export function useDeskLog(orderNum: string) {
  return useQuery({
    queryKey: [...printKeys.desk, 'log', orderNum],
    queryFn: () => call(printDeskApi.log, { params: { orderNum } }),
  });
}

export function useNotifications() {
  return useQuery({
    queryKey: [...printKeys.desk, 'notifications'],
    queryFn: () => call(printDeskApi.notifications, {}),
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
    }): Promise<Partial<PrintedResult>> => {
      if (action === 'confirm-payment') return call(printDeskApi.confirmPayment, { body: { ids } });
      if (action === 'printed') return call(printDeskApi.printed, { body: { ids } });
      return call(printDeskApi.express, { body: { ids, expressNumber: expressNumber ?? '' } });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.desk }),
  });
}
