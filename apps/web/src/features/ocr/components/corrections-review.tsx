import { Empty } from 'antd';
import { Link } from 'react-router';
import { hasRole } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { useSession } from '../../account/queries.ts';
import { CorrectionQueue } from './correction-queue.tsx';

/**
 * /OCRPage without a page: the catalogue staff's queue of readers' corrections (issue 32 part 5); the
 * window title is OcrPage's.
 */
export function CorrectionsReview() {
  const session = useSession();
  const user = session.data?.user;
  const staff = user != null && hasRole(user.roles, 'catalogAdmin');
  return (
    <div className="page corrections-review">
      <Breadcrumbs second={{ title: '纠错审核' }} />
      {session.isPending ? null : staff ? (
        <>
          <h1 className="page-title">纠错审核</h1>
          <p className="corrections-intro">
            读者在阅读器中提出的文字纠错。采纳后本页文字存为新版本，署提出者之名，全文检索随之更新；不予采纳须写明原因，仅提出者可见。
          </p>
          <CorrectionQueue />
        </>
      ) : (
        <Empty description={user ? '纠错审核仅向编目人员开放' : '请先登录'}>
          {!user && <Link to="/Login">去登录</Link>}
        </Empty>
      )}
    </div>
  );
}
