import { useCallback } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { HoverTip } from '../../../components/hover-tip.tsx';
import { CopyOutlined, DownOutlined } from '@ant-design/icons';
import type { ReaderData } from '@guji/shared';
import { useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';
import { citationOf } from '../citation.ts';
import { citationExports } from '../citation-exports.ts';

export interface CitedReaderPage {
  book: ReaderData['book'];
  volume: ReaderData['volume'];
  page: ReaderData['pages'][number];
}

/** The citation of the page shown, made when asked (it carries the day it was read); '' without a page. */
export function usePageCitation({
  book,
  volume,
  page,
}: Omit<CitedReaderPage, 'page'> & { page: CitedReaderPage['page'] | undefined }): () => string {
  const site = useSiteSettings();
  const siteName = site.data?.siteName;
  return useCallback(
    () =>
      page
        ? citationOf({
            siteName: siteName ?? document.title,
            origin: window.location.origin,
            book,
            volume,
            page,
            date: new Date(),
          })
        : '',
    [siteName, book, volume, page],
  );
}

/**
 * 复制引用: copies a citation of the page shown (book, volume, page and leaf, permalink, IIIF canvas,
 * date); its menu downloads the page's citation for reference managers (RIS, BibTeX, CSL-JSON).
 */
export function CiteButton(props: CitedReaderPage) {
  const citationOfPage = usePageCitation(props);
  const copy = () => {
    const citation = citationOfPage();
    navigator.clipboard.writeText(citation).then(
      () => toast.success('引用已复制'),
      () => toast.error('无法写入剪贴板，请手动复制：' + citation),
    );
  };
  const exports = citationExports(props.book.catalogId, {
    fascicleId: props.volume.fascicleId,
    imageId: props.page.imageId,
  });
  return (
    <Space.Compact>
      <HoverTip title="复制本页的引用（书名、卷册、页码与叶、永久链接与 IIIF canvas）">
        <Button icon={<CopyOutlined aria-hidden />} onClick={copy}>
          复制引用
        </Button>
      </HoverTip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: exports.map((item) => ({
            key: item.format,
            label: (
              <a href={item.href} download>
                下载本页引用（{item.label}）
              </a>
            ),
          })),
        }}
      >
        <Button icon={<DownOutlined aria-hidden />} aria-label="导出本页引用" title="导出本页引用" />
      </Dropdown>
    </Space.Compact>
  );
}
