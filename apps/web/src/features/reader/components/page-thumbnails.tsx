import { useEffect, useRef } from 'react';
import type { PageImage } from '@guji/shared';

export interface PageThumbnailsProps {
  pages: readonly PageImage[];
  /** The page shown (1-based), marked and kept in view. */
  current: number;
  onOpen: (pageNumber: number) => void;
}

/**
 * The volume's pages as a grid of IIIF thumbnails (the same small images the manifest lists), in
 * reading order; the page shown is marked and scrolled into view. Images load as they scroll in.
 */
export function PageThumbnails({ pages, current, onOpen }: PageThumbnailsProps) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    list.current?.querySelector('[aria-current="page"]')?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  return (
    <nav className="page-thumbnails" aria-label="本册缩略图">
      <ol ref={list}>
        {pages.map((page) => (
          <li key={page.imageId}>
            <button
              type="button"
              aria-label={`第 ${page.pageNumber} 页`}
              aria-current={page.pageNumber === current ? 'page' : undefined}
              onClick={() => onOpen(page.pageNumber)}
            >
              <img
                src={page.thumbnailUrl}
                alt=""
                loading="lazy"
                decoding="async"
                width={96}
                height={page.width > 0 ? Math.round((96 * page.height) / page.width) : 128}
              />
              <span>{page.pageNumber}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
