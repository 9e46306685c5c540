import { Button, Tooltip } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import type { ReaderData } from '@guji/shared';
import { useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';
import { citationOf } from '../citation.ts';

/** 复制引用: copies a citation of the page shown (book, volume, page, permalink, IIIF canvas, date). */
export function CiteButton({
  book,
  volume,
  page,
}: {
  book: ReaderData['book'];
  volume: ReaderData['volume'];
  page: ReaderData['pages'][number];
}) {
  const site = useSiteSettings();
  const copy = () => {
    const citation = citationOf({
      siteName: site.data?.siteName ?? document.title,
      origin: window.location.origin,
      book,
      volume,
      page,
      date: new Date(),
    });
    navigator.clipboard.writeText(citation).then(
      () => toast.success('引用已复制'),
      () => toast.error('无法写入剪贴板，请手动复制：' + citation),
    );
  };
  return (
    <Tooltip title="复制本页的引用（书名、卷册、页码、永久链接与 IIIF canvas）">
      <Button icon={<CopyOutlined aria-hidden />} onClick={copy}>
        复制引用
      </Button>
    </Tooltip>
  );
}
