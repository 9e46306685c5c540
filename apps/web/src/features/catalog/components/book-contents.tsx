import { useMemo } from 'react';
import { Button, Empty, Spin, Tree } from 'antd';
import { ReadOutlined } from '@ant-design/icons';
import { MSG, type DirectoryNode, type Volume } from '@guji/shared';
import { BookText, noConvert } from '../../../components/book-text.tsx';
import { flattenDirectory, toTreeData } from '../../reader/index.ts';
import { useDirectory } from '../queries.ts';

/**
 * A book's volumes beside the directory of the selected one: choosing a volume shows its directory;
 * 「阅读本册」 or an entry opens the reader there.
 */
export function BookContents({
  pending,
  volumes,
  selected,
  onSelect,
  onOpen,
}: {
  /** The volumes are still being fetched. */
  pending: boolean;
  volumes: Volume[];
  selected: Volume | null;
  onSelect: (fascicleId: number) => void;
  /** Opens the reader at an entry of a volume, or at its first page (entry null). */
  onOpen: (volume: Volume, entry: DirectoryNode | null) => void;
}) {
  return (
    <div className="book-contents">
      <section className="book-volumes" aria-labelledby="book-volumes-title">
        <h2 id="book-volumes-title">分册</h2>
        {pending ? (
          <Spin />
        ) : volumes.length === 0 ? (
          <Empty description={MSG.noData} />
        ) : (
          <ul className="volume-list">
            {volumes.map((volume) => (
              <li key={volume.fascicleId}>
                <button
                  type="button"
                  className="volume-item"
                  aria-pressed={volume.fascicleId === selected?.fascicleId}
                  onClick={() => onSelect(volume.fascicleId)}
                >
                  <BookText className="volume-name">{volume.name}</BookText>
                  <span className="volume-count">{volume.imageCount} 页</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </section>

      {selected && (
        <section className="book-directory" aria-labelledby="book-directory-title">
          <div className="book-directory-head">
            <h2 id="book-directory-title">
              <BookText>{selected.name}</BookText> 目录
            </h2>
            <Button type="primary" icon={<ReadOutlined aria-hidden />} onClick={() => onOpen(selected, null)}>
              阅读本册
            </Button>
          </div>
          {selected.introduction && (
            <p className="volume-intro" {...noConvert}>
              {selected.introduction}
            </p>
          )}
          <VolumeDirectory volume={selected} onOpen={(entry) => onOpen(selected, entry)} />
        </section>
      )}
    </div>
  );
}

function VolumeDirectory({ volume, onOpen }: { volume: Volume; onOpen: (entry: DirectoryNode) => void }) {
  const directory = useDirectory(volume.fascicleId);
  const treeData = useMemo(() => toTreeData(directory.data ?? []), [directory.data]);
  const byId = useMemo(
    () => new Map(flattenDirectory(directory.data ?? []).map((node) => [node.directoryId, node])),
    [directory.data],
  );
  if (directory.isPending) return <Spin />;
  if (treeData.length === 0) return <p className="directory-empty">本册暂无目录</p>;
  return (
    <Tree
      key={volume.fascicleId}
      aria-label={`${volume.name}目录`}
      className="directory-tree"
      treeData={treeData}
      titleRender={(node) => <BookText>{typeof node.title === 'string' ? node.title : null}</BookText>}
      defaultExpandAll
      selectedKeys={[]}
      onSelect={(_, info) => {
        const entry = byId.get(Number(info.node.key));
        if (entry) onOpen(entry);
      }}
    />
  );
}
