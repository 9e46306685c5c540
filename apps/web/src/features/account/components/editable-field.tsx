import { useRef, useState } from 'react';
import { Button, Input } from 'antd';
import { EditOutlined } from '@ant-design/icons';
import { toast } from '../../../components/toast.ts';
import { noConvert } from '../../../components/book-text.tsx';

interface EditableFieldProps {
  label: string;
  /** What display mode shows (may be masked). */
  display: string | null;
  /** The value edit mode starts from; a masked field starts empty. */
  initial: string;
  /** The rule's message when `value` breaks it, else null. */
  validate: (value: string) => string | null;
  /** Saves a changed value; resolves when saved, rejects after the caller showed the failure. */
  save: (value: string) => Promise<unknown>;
  maxLength?: number;
}

/**
 * A profile value that switches between display and edit (spec §4). The edit icon opens the box;
 * Enter or leaving the box saves when the value changed, Escape cancels.
 */
export function EditableField({ label, display, initial, validate, save, maxLength }: EditableFieldProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const busy = useRef(false);

  const startEdit = () => {
    busy.current = false;
    setDraft(initial);
    setEditing(true);
  };

  const commit = () => {
    if (busy.current) return;
    const value = draft.trim();
    if (value === initial.trim()) {
      setEditing(false);
      return;
    }
    const problem = validate(value);
    if (problem) {
      toast.error(problem);
      return;
    }
    busy.current = true;
    setSaving(true);
    save(value)
      .then(
        () => setEditing(false),
        () => undefined,
      )
      .finally(() => {
        busy.current = false;
        setSaving(false);
      });
  };

  if (editing) {
    return (
      <Input
        className="editable-input"
        aria-label={label}
        autoFocus
        value={draft}
        maxLength={maxLength}
        readOnly={saving}
        onChange={(event) => setDraft(event.target.value)}
        onPressEnter={commit}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            // Ignore the blur that may follow while the box goes away.
            busy.current = true;
            setEditing(false);
          }
        }}
      />
    );
  }

  return (
    <span className="editable-display">
      {/* The value as the user typed it; 未填写 is the interface's. */}
      {display ? (
        <span className="field-value" {...noConvert}>
          {display}
        </span>
      ) : (
        <span className="field-value field-empty">未填写</span>
      )}
      <Button
        type="text"
        size="small"
        icon={<EditOutlined />}
        aria-label={`修改${label}`}
        onClick={startEdit}
      />
    </span>
  );
}
