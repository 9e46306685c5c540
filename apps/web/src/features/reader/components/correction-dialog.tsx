import { useState } from 'react';
import { Alert, Form, Input, Modal, Tag } from 'antd';
import { CORRECTION_LIMITS, correctionProblem, MSG, type TextCorrection } from '@guji/shared';
import { ApiError } from '../../../api/client.ts';
import { BookText } from '../../../components/book-text.tsx';
import { toast } from '../../../components/toast.ts';
import { useMyCorrections, useProposeCorrection } from '../../ocr/queries.ts';
import type { CorrectionRange } from '../text-links.ts';

export interface CorrectionDialogProps {
  imageId: number;
  /** The characters chosen in the text pane. */
  range: CorrectionRange;
  onClose: () => void;
}

const STATUS: Record<TextCorrection['status'], { label: string; color: string }> = {
  pending: { label: '待审核', color: 'gold' },
  accepted: { label: '已采纳', color: 'green' },
  refused: { label: '未采纳', color: 'default' },
};

/**
 * 纠错 (issue 32 part 5): the reader writes what the chosen characters should be, character for
 * character, or leaves that empty and says in a note what is wrong (a missing or extra character);
 * catalogue staff review it before the text changes. Below, the reader's own earlier corrections of this
 * page and what became of them.
 */
export function CorrectionDialog({ imageId, range, onClose }: CorrectionDialogProps) {
  const [proposed, setProposed] = useState('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const propose = useProposeCorrection(imageId);
  const mine = useMyCorrections(imageId, true).data?.records ?? [];
  const count = [...range.original].length;

  const submit = () => {
    const found =
      correctionProblem(range.original, proposed) ??
      (proposed.trim() === '' && note.trim() === '' ? MSG.correctionEmpty : null) ??
      ([...note.trim()].length > CORRECTION_LIMITS.noteMax ? MSG.correctionNoteTooLong : null);
    setProblem(found);
    if (found) return;
    propose.mutate(
      {
        line: range.line,
        start: range.start,
        original: range.original,
        proposed: proposed.trim(),
        note: note.trim(),
      },
      {
        onSuccess: () => {
          toast.success(MSG.correctionSaved);
          onClose();
        },
        onError: (error) => setProblem(error instanceof ApiError ? error.message : MSG.serverException),
      },
    );
  };

  return (
    <Modal
      open
      title="纠错"
      okText="提交"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={propose.isPending}
      destroyOnHidden
    >
      <Form layout="vertical" className="correction-form">
        <Form.Item label={`原文（第 ${range.line + 1} 列，第 ${range.start + 1} 字起，共 ${count} 字）`}>
          <BookText className="correction-original">{range.original}</BookText>
        </Form.Item>
        <Form.Item
          label="改为"
          extra={`逐字写出改正后的 ${count} 个字；若只是标出此处有误（如缺字、多字），请留空并在说明中写明`}
        >
          <Input value={proposed} onChange={(event) => setProposed(event.target.value)} aria-label="改为" />
        </Form.Item>
        <Form.Item label="说明（可选）">
          <Input.TextArea
            value={note}
            onChange={(event) => setNote(event.target.value)}
            maxLength={CORRECTION_LIMITS.noteMax}
            showCount
            rows={2}
            placeholder="如：据某本改；原字漫漶"
            aria-label="说明"
          />
        </Form.Item>
        {problem && <Alert type="error" showIcon message={problem} role="alert" />}
      </Form>
      {mine.length > 0 && <MyCorrections records={mine} />}
    </Modal>
  );
}

/** The reader's own earlier corrections of this page, and what became of them. */
function MyCorrections({ records }: { records: readonly TextCorrection[] }) {
  return (
    <section className="correction-mine" aria-label="我对本页的纠错">
      <h3>我对本页的纠错</h3>
      <ul>
        {records.map((c) => (
          <li key={c.id}>
            <Tag color={STATUS[c.status].color}>{STATUS[c.status].label}</Tag>
            <BookText>{c.original}</BookText>
            {c.proposed ? (
              <>
                {' → '}
                <BookText>{c.proposed}</BookText>
              </>
            ) : (
              '（标记有误）'
            )}
            {c.status === 'accepted' && c.version != null && `，已存为第 ${c.version} 版`}
            {c.refuseReason && (
              <>
                {'，原因：'}
                <BookText>{c.refuseReason}</BookText>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
