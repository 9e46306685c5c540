import { Button, Input, Select, Tooltip } from 'antd';
import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowRightOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { DIRECTORY_LIMITS } from '@guji/shared';
import type { DirectoryRow } from './directory-editor.tsx';

/** The edits a directory row offers on the editor's list of rows. */
export interface DirectoryRowEdits {
  update: (key: number, patch: Partial<DirectoryRow>) => void;
  move: (index: number, by: -1 | 1) => void;
  /** Adds a blank row below `index` (-1: at the top), at that row's level. */
  add: (index: number) => void;
  remove: (key: number) => void;
}

interface DirectoryRowProps {
  row: DirectoryRow;
  index: number;
  list: DirectoryRow[];
  edits: DirectoryRowEdits;
}

/** One entry of the directory editor: its name, the page it opens, and the buttons that move and edit it. */
export function DirectoryRowItem({
  row,
  index,
  list,
  problem,
  pageOptions,
  edits,
}: DirectoryRowProps & { problem: string | null; pageOptions: { value: number; label: string }[] }) {
  return (
    <li className="directory-row" style={{ paddingInlineStart: row.level * 24 }}>
      <Input
        aria-label={`第 ${index + 1} 条目录名称`}
        value={row.name}
        maxLength={DIRECTORY_LIMITS.nameMax}
        placeholder="目录名称"
        status={problem && row.name.trim() === '' ? 'error' : undefined}
        onChange={(e) => edits.update(row.key, { name: e.target.value })}
      />
      <Select
        aria-label={`第 ${index + 1} 条目录的页面`}
        className="directory-page"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder="不指向页面"
        value={row.imageId ?? undefined}
        options={pageOptions}
        onChange={(value: number | undefined) => edits.update(row.key, { imageId: value ?? null })}
      />
      <DirectoryRowActions row={row} index={index} list={list} edits={edits} />
    </li>
  );
}

/** A row's order, level, add and delete buttons, each disabled where the move cannot be made. */
function DirectoryRowActions({ row, index, list, edits }: DirectoryRowProps) {
  return (
    <span className="directory-actions">
      <Tooltip title="上移">
        <Button
          size="small"
          aria-label={`上移第 ${index + 1} 条`}
          icon={<ArrowUpOutlined aria-hidden />}
          disabled={index === 0}
          onClick={() => edits.move(index, -1)}
        />
      </Tooltip>
      <Tooltip title="下移">
        <Button
          size="small"
          aria-label={`下移第 ${index + 1} 条`}
          icon={<ArrowDownOutlined aria-hidden />}
          disabled={index === list.length - 1}
          onClick={() => edits.move(index, 1)}
        />
      </Tooltip>
      <Tooltip title="升一级">
        <Button
          size="small"
          aria-label={`第 ${index + 1} 条升一级`}
          icon={<ArrowLeftOutlined aria-hidden />}
          disabled={row.level === 0}
          onClick={() => edits.update(row.key, { level: row.level - 1 })}
        />
      </Tooltip>
      <Tooltip title="降一级">
        <Button
          size="small"
          aria-label={`第 ${index + 1} 条降一级`}
          icon={<ArrowRightOutlined aria-hidden />}
          disabled={
            index === 0 || row.level > list[index - 1]!.level || row.level >= DIRECTORY_LIMITS.maxDepth - 1
          }
          onClick={() => edits.update(row.key, { level: row.level + 1 })}
        />
      </Tooltip>
      <Tooltip title="在下方添加">
        <Button
          size="small"
          aria-label={`在第 ${index + 1} 条下方添加`}
          icon={<PlusOutlined aria-hidden />}
          onClick={() => edits.add(index)}
        />
      </Tooltip>
      <Tooltip title="删除">
        <Button
          size="small"
          danger
          aria-label={`删除第 ${index + 1} 条`}
          icon={<DeleteOutlined aria-hidden />}
          onClick={() => edits.remove(row.key)}
        />
      </Tooltip>
    </span>
  );
}
