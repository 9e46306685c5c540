import { Button } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { toast } from './toast.ts';

/**
 * A IIIF manifest (or collection) for other libraries' viewers: the link to it; the IIIF logo as a
 * drag-and-drop link (the IIIF convention: `<manifest>?manifest=<manifest>`, dropped on Mirador,
 * Universal Viewer and others, they open it); and a button that copies its address.
 */
export function IiifLinks({ url, label = 'IIIF 清单' }: { url: string; label?: string }) {
  const absolute = new URL(url, window.location.href).toString();
  const copy = () =>
    navigator.clipboard.writeText(absolute).then(
      () => toast.success('清单地址已复制，可粘贴到其他 IIIF 阅读器中打开'),
      () => toast.error(`无法写入剪贴板，请手动复制：${absolute}`),
    );
  return (
    <span className="iiif-links">
      <a
        className="iiif-logo"
        href={`${absolute}?manifest=${encodeURIComponent(absolute)}`}
        title="把此图标拖到 Mirador、Universal Viewer 等 IIIF 阅读器中打开"
        aria-label="IIIF 拖放图标：拖到其他 IIIF 阅读器中打开"
        draggable
      >
        IIIF
      </a>
      <a className="iiif-link" href={absolute}>
        {label}
      </a>
      <Button size="small" type="link" icon={<CopyOutlined aria-hidden />} onClick={() => void copy()}>
        复制清单地址
      </Button>
    </span>
  );
}
