import { useEffect, useMemo, useRef } from 'react';
import { Tree } from 'antd';
import type { DirectoryNode } from '@guji/shared';
import { flattenDirectory, toTreeData } from '../directory.ts';
import { BookText } from '../../../components/book-text.tsx';

export interface ReaderDirectoryProps {
  id: string;
  directory: DirectoryNode[];
  /** The entry holding the current page, highlighted. */
  currentId: number | null;
  onOpen: (entry: DirectoryNode) => void;
}

/** The side directory of the reader: the volume's entries, the current one selected and in view. */
export function ReaderDirectory({ id, directory, currentId, onOpen }: ReaderDirectoryProps) {
  const panel = useRef<HTMLElement>(null);
  const treeData = useMemo(() => toTreeData(directory), [directory]);
  const byId = useMemo(
    () => new Map(flattenDirectory(directory).map((node) => [node.directoryId, node])),
    [directory],
  );

  useEffect(() => {
    panel.current?.querySelector('.ant-tree-treenode-selected')?.scrollIntoView({ block: 'nearest' });
  }, [currentId]);

  return (
    <nav id={id} ref={panel} className="reader-directory" aria-label="本册目录">
      <h2 className="visually-hidden">目录</h2>
      {treeData.length ? (
        <Tree
          aria-label="目录条目"
          treeData={treeData}
          titleRender={(node) => <BookText>{typeof node.title === 'string' ? node.title : null}</BookText>}
          defaultExpandAll
          selectedKeys={currentId != null ? [currentId] : []}
          onSelect={(_, info) => {
            const entry = byId.get(Number(info.node.key));
            if (entry) onOpen(entry);
          }}
        />
      ) : (
        <p className="reader-directory-empty">本册暂无目录</p>
      )}
    </nav>
  );
}
