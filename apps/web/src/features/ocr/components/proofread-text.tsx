import { Button, Input, Space } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { OcrJson } from '@guji/shared';
import { noConvert } from '../../../components/book-text.tsx';
import { confidenceClass } from '../../reader/index.ts';
import {
  mergeWithNext,
  moveColumn,
  removeCell,
  setCharacter,
  setNote,
  splitCell,
  type CellRef,
} from '../ocr-edit.ts';

interface EditProps {
  draft: OcrJson;
  selected: CellRef | null;
  /** The draft after an edit. */
  onEdit: (next: OcrJson) => void;
  onSelect: (cell: CellRef | null) => void;
}

/** The selected character with its place and confidence, and what can be done to its cell. */
export function SelectedCellTools({ draft, selected, onEdit: edit, onSelect }: EditProps) {
  const selectedWord = selected ? draft.ocr_res.content[selected.line]?.words[selected.index] : undefined;
  return (
    <div className="ocr-cell-tools" role="group" aria-label="所选文字">
      {/* The interface text follows the 简/繁 choice; the recognised character is shown as it is. */}
      <span className="ocr-cell-current">
        {selected && selectedWord ? (
          <>
            第 {selected.line + 1} 列第 {selected.index + 1} 字：
            <span {...noConvert}>{selectedWord.word}</span>（置信度 {selectedWord.confidence.toFixed(2)}）
          </>
        ) : (
          '点选一个字或图上的框'
        )}
      </span>
      <Space wrap size={4}>
        <Button
          size="small"
          disabled={!selected}
          onClick={() => selected && edit(mergeWithNext(draft, selected))}
        >
          与下一字合并
        </Button>
        <Button
          size="small"
          disabled={!selected}
          onClick={() => selected && edit(splitCell(draft, selected))}
        >
          拆分
        </Button>
        <Button
          size="small"
          disabled={!selected}
          onClick={() => selected && edit(setNote(draft, selected, selectedWord?.type !== 'note'))}
        >
          {selectedWord?.type === 'note' ? '改为正文' : '标为小注'}
        </Button>
        <Button
          size="small"
          danger
          disabled={!selected}
          onClick={() => {
            if (!selected) return;
            edit(removeCell(draft, selected));
            onSelect(null);
          }}
        >
          删除此格
        </Button>
      </Space>
    </div>
  );
}

/** The page's columns in reading order, each movable, its characters editable one cell each. */
export function ColumnEditor({ draft, selected, onEdit: edit, onSelect }: EditProps) {
  return (
    <ol className="ocr-columns">
      {draft.ocr_res.content.map((line, l) => (
        <li key={l} className="ocr-column-row">
          <span className="ocr-column-label">第 {l + 1} 列</span>
          <span className="ocr-column-move">
            <Button
              size="small"
              icon={<ArrowUpOutlined aria-hidden />}
              aria-label={`第 ${l + 1} 列前移`}
              disabled={l === 0}
              onClick={() => edit(moveColumn(draft, l, -1))}
            />
            <Button
              size="small"
              icon={<ArrowDownOutlined aria-hidden />}
              aria-label={`第 ${l + 1} 列后移`}
              disabled={l === draft.ocr_res.content.length - 1}
              onClick={() => edit(moveColumn(draft, l, 1))}
            />
          </span>
          <span className="ocr-cells" {...noConvert}>
            {line.words.map((word, i) => (
              <Input
                key={i}
                aria-label={`第 ${l + 1} 列第 ${i + 1} 字`}
                className={[
                  'ocr-cell',
                  word.type === 'note' ? 'ocr-note' : '',
                  confidenceClass(word.confidence) ?? '',
                  selected?.line === l && selected.index === i ? 'ocr-cell-selected' : '',
                ].join(' ')}
                value={word.word}
                onFocus={() => onSelect({ line: l, index: i })}
                onChange={(event) => {
                  const typed = [...event.target.value].filter((c) => c !== word.word);
                  const next = typed.at(-1) ?? [...event.target.value].at(-1);
                  if (next) edit(setCharacter(draft, { line: l, index: i }, next));
                }}
              />
            ))}
          </span>
        </li>
      ))}
    </ol>
  );
}
