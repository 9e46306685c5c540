import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { refundApi } from '@guji/shared';
import { call } from '../../api/client.ts';
import { printKeys } from './queries.ts';

/** Refunds and reconciliation at the print desk (docs/payments.md). */
const refundKeys = {
  order: (orderNum: string) => [...printKeys.desk, 'refunds', orderNum] as const,
  reconciliation: (date: string) => [...printKeys.desk, 'reconciliation', date] as const,
};

export function useOrderRefunds(orderNum: string) {
  return useQuery({
    queryKey: refundKeys.order(orderNum),
    queryFn: () => call(refundApi.ofOrder, { params: { orderNum } }),
  });
}

/** Cancel and refund an order, or retry a refund; afterwards the desk's lists are read again. */
export function useRefundAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (
      action: { kind: 'cancel'; orderNum: string; reason: string } | { kind: 'retry'; refundId: number },
    ) =>
      action.kind === 'cancel'
        ? call(refundApi.cancel, { params: { orderNum: action.orderNum }, body: { reason: action.reason } })
        : call(refundApi.retry, { params: { refundId: action.refundId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: printKeys.desk }),
  });
}

/** A day's reconciliation, asked for when the desk presses 对账 (it queries the provider per trade). */
export function useReconciliation(date: string | undefined) {
  return useQuery({
    queryKey: refundKeys.reconciliation(date ?? ''),
    queryFn: () => call(refundApi.reconciliation, { query: { date: date! } }),
    enabled: date !== undefined,
    staleTime: 0,
  });
}
