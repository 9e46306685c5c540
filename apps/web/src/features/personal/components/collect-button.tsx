import { Button } from 'antd';
import { StarFilled, StarOutlined } from '@ant-design/icons';
import { MSG } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useLoginFirst } from '../../account/index.ts';
import { useCollectState, useToggleCollect } from '../queries.ts';

/** 收藏 / 取消收藏 on the book page: the state shown, toggled without a reload. */
export function CollectButton({ catalogId }: { catalogId: number }) {
  const { signedIn, loginFirst } = useLoginFirst();
  const state = useCollectState(catalogId, signedIn);
  const toggle = useToggleCollect(catalogId);
  const collected = state.data?.collected ?? false;

  const onClick = () => {
    if (!loginFirst()) return;
    void toggle.mutateAsync(!collected).then(
      (result) => {
        state.refetch().catch(() => undefined);
        toast.success(result.collected ? MSG.collected : MSG.collectCancelled);
      },
      () => undefined,
    );
  };

  return (
    <Button
      icon={collected ? <StarFilled aria-hidden className="collected-star" /> : <StarOutlined aria-hidden />}
      aria-pressed={collected}
      loading={toggle.isPending || (signedIn && state.isPending)}
      onClick={onClick}
    >
      {collected ? '已收藏' : '收藏'}
    </Button>
  );
}
