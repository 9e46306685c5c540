export interface BookCoverProps {
  title: string;
  coverUrl: string | null;
  /** Pixel size of the box; the image keeps its proportions inside it. */
  width: number;
  height: number;
  /** Load only when near the viewport (long lists). */
  lazy?: boolean;
}

/** A book's cover (a IIIF thumbnail of its first page), or a plain placeholder when it has none. */
export function BookCover({ title, coverUrl, width, height, lazy = true }: BookCoverProps) {
  const alt = `《${title}》封面`;
  // Scales down in narrow columns, keeping the box's proportions for image and placeholder alike.
  const style = { width, aspectRatio: `${width} / ${height}` };
  if (!coverUrl) {
    return (
      <div className="book-cover book-cover-empty" role="img" aria-label={alt} style={style}>
        <span aria-hidden="true">暂无封面</span>
      </div>
    );
  }
  return (
    <img
      className="book-cover"
      src={coverUrl}
      alt={alt}
      width={width}
      height={height}
      style={style}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
    />
  );
}
