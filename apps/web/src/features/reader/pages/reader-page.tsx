import { useEffect, useMemo, useRef } from 'react';
import { Button } from 'antd';
import { Link, useLocation, useSearchParams } from 'react-router';
import { MSG } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { PageLoading } from '../../../components/page-loading.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useRefusalNotice } from '../hooks/use-refusal-notice.ts';
import { useReaderData } from '../queries.ts';
import { readerRefusal } from '../reader-refusal.ts';
import { parseReaderParams } from '../../../lib/reader-url.ts';
import { ReaderView } from './reader-view.tsx';
import { useCitationTags } from '../citation-tags.ts';
import { releaseBootPreview } from '../viewer/boot-preview.ts';

/**
 * /Book?catalogId&fascicleId&directoryId&imageId: the reader (spec §2). One call (GET /api/reader)
 * brings the volume; the address names the page, so reload, back and sharing keep it. Access is the
 * server's: its refusals become the notices and redirects of DESIGN.md §7.
 */
export function ReaderPage() {
  const [searchParams] = useSearchParams();
  const location = useLocation();
  const { catalogId, fascicleId, directoryId, imageId, highlight } = parseReaderParams(searchParams);
  const query = useReaderData(catalogId, fascicleId);

  // Data of another book kept while this one loads is never shown.
  const data = query.data && query.data.book.catalogId === catalogId ? query.data : undefined;
  useDocumentTitle(data ? `${data.book.title} ${data.volume.name}` : '阅读');

  const here = location.pathname + location.search;
  // The served citation tags name the page the reader was opened at.
  useCitationTags(here);
  const hereRef = useRef(here);
  useEffect(() => {
    hereRef.current = here;
  });
  const error = query.error;
  const refusal = useMemo(() => {
    if (catalogId == null) return readerRefusal(404, 'NO_DATA', MSG.noData, hereRef.current);
    if (!error) return null;
    const status = error instanceof ApiError ? error.status : 0;
    const code = error instanceof ApiError ? error.code : 'NETWORK';
    return readerRefusal(status, code, error.message, hereRef.current);
  }, [catalogId, error]);
  useRefusalNotice(refusal);
  // index.html's early page image never outlives the reader, nor stands over a refusal.
  const refused = refusal != null && !data;
  useEffect(() => {
    if (refused) releaseBootPreview();
  }, [refused]);
  useEffect(() => releaseBootPreview, []);

  if (refusal && !data) {
    return (
      <div className="page-narrow reader-refused" role="status">
        <p>{refusal.notice}</p>
        {refusal.to === null && catalogId != null && (
          <Button type="primary" onClick={() => void query.refetch()} loading={query.isFetching}>
            重试
          </Button>
        )}
        <Link to="/" className="reader-refused-home">
          返回首页
        </Link>
      </div>
    );
  }
  if (!data) return <PageLoading />;
  return (
    <ReaderView
      data={data}
      loadingVolume={query.isPlaceholderData || (fascicleId != null && data.volume.fascicleId !== fascicleId)}
      directoryId={directoryId}
      highlight={highlight}
      imageId={imageId}
    />
  );
}
