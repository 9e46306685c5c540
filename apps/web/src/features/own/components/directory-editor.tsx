import { useEffect, useState } from 'react';
import { Button, Modal, Spin } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { DIRECTORY_LIMITS, type DirectoryNode, MSG, type DirectoryInput, type Volume } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { catalogKeys } from '../../catalog/queries.ts';
import { ownKeys, saveDirectory, useDirectoryForEdit, useOwnPages } from '../queries.ts';
import { DirectoryRowItem, type DirectoryRowEdits } from './directory-row.tsx';

/** A directory entry as a row of the editor: the tree is edited as an indented list. */
export interface DirectoryRow {
  key: number;
  name: string;
  imageId: number | null;
  /** 0 for a top-level entry; a row is at most one level deeper than the row above it. */
  level: number;
}

let nextKey = 1;

export function flattenDirectory(nodes: DirectoryNode[], level = 0): DirectoryRow[] {
  return nodes.flatMap((node) => [
    { key: nextKey++, name: node.name, imageId: node.imageId, level },
    ...flattenDirectory(node.children, level + 1),
  ]);
}

/** The rows as the tree the server saves (levels are assumed valid: see `directoryProblem`). */
export function nestDirectory(rows: DirectoryRow[]): DirectoryInput[] {
  const roots: DirectoryInput[] = [];
  const path: DirectoryInput[] = [];
  for (const row of rows) {
    const node: DirectoryInput = { name: row.name.trim(), imageId: row.imageId, children: [] };
    path.length = row.level;
    (row.level === 0 ? roots : path[row.level - 1]!.children).push(node);
    path.push(node);
  }
  return roots;
}

/** The first problem of the rows as the server would name it, or null. */
export function directoryProblem(rows: DirectoryRow[]): string | null {
  if (rows.length > DIRECTORY_LIMITS.maxEntries) return MSG.directoryTooMany;
  for (const [i, row] of rows.entries()) {
    if (row.name.trim() === '') return MSG.directoryNameRequired;
    if ([...row.name.trim()].length > DIRECTORY_LIMITS.nameMax) return MSG.directoryNameTooLong;
    if (row.level >= DIRECTORY_LIMITS.maxDepth) return MSG.directoryTooDeep;
    if (row.level > (i === 0 ? 0 : rows[i - 1]!.level + 1)) return '下级条目须紧跟在其上级条目之后';
  }
  return null;
}

/** The editor's rows loaded once from the server, the edits on them, and saving them whole. */
function useDirectoryDraft(volume: Volume, onClose: () => void) {
  const queryClient = useQueryClient();
  const tree = useDirectoryForEdit(volume.fascicleId);
  const pages = useOwnPages(volume.fascicleId);
  const [rows, setRows] = useState<DirectoryRow[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (tree.data && rows === null) setRows(flattenDirectory(tree.data));
  }, [tree.data, rows]);

  const change = (next: DirectoryRow[]) => {
    setRows(next);
    setProblem(null);
  };
  const edits: DirectoryRowEdits = {
    update: (key, patch) => change((rows ?? []).map((r) => (r.key === key ? { ...r, ...patch } : r))),
    move: (index, by) => {
      const next = [...(rows ?? [])];
      const [row] = next.splice(index, 1);
      next.splice(index + by, 0, row!);
      change(next);
    },
    add: (index) => {
      const list = rows ?? [];
      const level = index < 0 ? 0 : list[index]!.level;
      const next = [...list];
      next.splice(index + 1, 0, { key: nextKey++, name: '', imageId: null, level });
      change(next);
    },
    remove: (key) => change((rows ?? []).filter((r) => r.key !== key)),
  };
  const save = () => {
    const list = rows ?? [];
    const found = directoryProblem(list);
    if (found) {
      setProblem(found);
      return;
    }
    setSaving(true);
    saveDirectory(volume.fascicleId, nestDirectory(list))
      .then(
        (result) => {
          toast.success(result.message ?? MSG.directorySaved);
          void queryClient.invalidateQueries({ queryKey: ownKeys.directory(volume.fascicleId) });
          void queryClient.invalidateQueries({ queryKey: catalogKeys.directories });
          onClose();
        },
        (failure: unknown) => setProblem(failure instanceof Error ? failure.message : '保存失败'),
      )
      .finally(() => setSaving(false));
  };

  const pageOptions = (pages.data ?? []).map((p) => ({
    value: p.imageId,
    label: `第 ${p.pageNumber} 页 · ${p.name}`,
  }));
  return { rows, problem, saving, edits, save, pageOptions };
}

/**
 * A volume's directory (目录) edited as an indented list: name, the page each entry opens, order and
 * level; saved whole. The reader's directory, the book page and the IIIF ranges follow at once.
 */
export function DirectoryEditor({ volume, onClose }: { volume: Volume; onClose: () => void }) {
  const { rows, problem, saving, edits, save, pageOptions } = useDirectoryDraft(volume, onClose);
  const list = rows ?? [];
  return (
    <Modal
      open
      width={760}
      title={`编辑目录：${volume.name}`}
      okText="保存目录"
      cancelText="取消"
      onOk={save}
      onCancel={onClose}
      confirmLoading={saving}
    >
      {rows === null ? (
        <Spin />
      ) : (
        <div className="directory-editor">
          <p className="own-note">
            每条目录可指向本卷的一页；用 ← → 调整层级（最多 {DIRECTORY_LIMITS.maxDepth} 级），用 ↑ ↓
            调整顺序。
          </p>
          {list.length === 0 && <p>本卷还没有目录。</p>}
          <ol className="directory-rows" aria-label="目录条目">
            {list.map((row, index) => (
              <DirectoryRowItem
                key={row.key}
                row={row}
                index={index}
                list={list}
                problem={problem}
                pageOptions={pageOptions}
                edits={edits}
              />
            ))}
          </ol>
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => edits.add(list.length - 1)}>
            添加目录条目
          </Button>
          {problem && (
            <div className="field-error" role="alert">
              {problem}
            </div>
          )}
        </div>
      )}
    </Modal>
  );
}
