import { Spin } from 'antd';

/** A centred spinner while a page or its data loads. */
export function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-label="加载中">
      <Spin />
    </div>
  );
}
