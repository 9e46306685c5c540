import { useEffect, useState } from 'react';
import { Button, Dropdown, Input, Modal, Popconfirm } from 'antd';
import { DownloadOutlined, FormOutlined } from '@ant-design/icons';
import { downloadsApi, MSG, PERSONAL_LIMITS, type Note, type NoteRect } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { useSiteSettings } from '../../../api/site.ts';
import { toast } from '../../../components/toast.ts';
import { reportFootprint, useNoteMutations, usePageNotes } from '../queries.ts';

/**
 * The reader's download menu: this page as a JPEG (with the site, the reader and the date at its foot),
 * its recognised text, and the whole volume as a PDF when the site allows it. The server checks access
 * and records each download.
 */
export function ReaderDownloadMenu({ imageId, fascicleId }: { imageId: number; fascicleId: number }) {
  const site = useSiteSettings().data;
  const items = [
    {
      key: 'jpg',
      label: (
        <a href={hrefOf(downloadsApi.pageImage, { id: imageId })} download>
          本页图像（JPEG）
        </a>
      ),
    },
    {
      key: 'txt',
      label: (
        <a href={hrefOf(downloadsApi.pageText, { id: imageId })} download>
          本页文字（TXT）
        </a>
      ),
    },
    ...(site?.downloadVolumePdf
      ? [
          {
            key: 'pdf',
            label: (
              <a href={hrefOf(downloadsApi.volumePdf, { id: fascicleId })} download>
                整册（PDF）
              </a>
            ),
          },
        ]
      : []),
  ];
  return (
    <Dropdown menu={{ items }} trigger={['click']}>
      <Button icon={<DownloadOutlined aria-hidden />}>下载</Button>
    </Dropdown>
  );
}

/** Tells the server which page the reader shows, for the footprint's last page (after 1 s on it). */
export function useFootprintReport(imageId: number | null, enabled: boolean): void {
  useEffect(() => {
    if (!enabled || imageId === null) return;
    const timer = window.setTimeout(() => {
      void reportFootprint(imageId);
    }, 1000);
    return () => window.clearTimeout(timer);
  }, [imageId, enabled]);
}

/** Checks a note's text as the server does. */
export function noteProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return MSG.noteEmpty;
  if ([...trimmed].length > PERSONAL_LIMITS.noteMax) return MSG.noteTooLong;
  if (/<\s*\/?\s*[a-zA-Z!][^>]*>/.test(trimmed)) return MSG.noHtml;
  return null;
}

/** The notes toolbar button: toggles drawing a rectangle for a new note. */
function NotesButton({ drawing, onToggle }: { drawing: boolean; onToggle: () => void }) {
  return (
    <Button
      icon={<FormOutlined aria-hidden />}
      aria-pressed={drawing}
      type={drawing ? 'primary' : 'default'}
      onClick={onToggle}
    >
      {drawing ? '框选位置…' : '批注'}
    </Button>
  );
}

/** The note dialog: new or edit, its text and problem; delete (when editing), cancel and save. */
function NoteModal({
  open,
  editing,
  text,
  problem,
  saving,
  onChange,
  onSave,
  onDelete,
  onClose,
}: {
  open: boolean;
  editing: boolean;
  text: string;
  problem: string | null;
  saving: boolean;
  onChange: (text: string) => void;
  onSave: () => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      title={editing ? '编辑批注' : '新建批注'}
      open={open}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        editing ? (
          <Popconfirm
            key="delete"
            title="删除这条批注？"
            okText="删除"
            cancelText="取消"
            onConfirm={onDelete}
          >
            <Button danger>删除</Button>
          </Popconfirm>
        ) : null,
        <Button key="cancel" onClick={onClose}>
          取消
        </Button>,
        <Button key="save" type="primary" onClick={onSave} loading={saving}>
          保存
        </Button>,
      ]}
    >
      <label htmlFor="note-text">批注内容</label>
      <Input.TextArea
        id="note-text"
        rows={4}
        value={text}
        status={problem ? 'error' : undefined}
        maxLength={PERSONAL_LIMITS.noteMax + 20}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <div className="field-error" role="alert">
          {problem}
        </div>
      )}
    </Modal>
  );
}

/**
 * Notes on the page shown: the user's own notes as overlays; a toolbar button to draw a rectangle and
 * write one; a click on a note opens it to edit or delete.
 */
export function useReaderNotes(imageId: number | null, enabled: boolean) {
  const notes = usePageNotes(imageId, enabled);
  const { create, update, remove } = useNoteMutations();
  const [drawing, setDrawing] = useState(false);
  const [draft, setDraft] = useState<NoteRect | null>(null);
  const [editing, setEditing] = useState<Note | null>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  // A new page ends drawing and closes what was open.
  useEffect(() => {
    setDrawing(false);
    setDraft(null);
    setEditing(null);
  }, [imageId]);

  const open = (id: number) => {
    const note = notes.data?.find((n) => n.id === id);
    if (!note) return;
    setEditing(note);
    setText(note.text);
    setProblem(null);
  };
  const onDraw = (rect: NoteRect) => {
    setDrawing(false);
    setDraft(rect);
    setText('');
    setProblem(null);
  };
  const close = () => {
    setDraft(null);
    setEditing(null);
  };
  const save = () => {
    const found = noteProblem(text);
    setProblem(found);
    if (found || imageId === null) return;
    const done = () => {
      toast.success(MSG.noteSaved);
      void notes.refetch();
      close();
    };
    if (editing) void update.mutateAsync({ id: editing.id, text: text.trim() }).then(done, () => undefined);
    else if (draft)
      void create.mutateAsync({ ...draft, imageId, text: text.trim() }).then(done, () => undefined);
  };
  const del = () => {
    if (!editing) return;
    void remove.mutateAsync(editing.id).then(
      () => {
        toast.success(MSG.deleteSuccess);
        void notes.refetch();
        close();
      },
      () => undefined,
    );
  };

  const button = enabled ? <NotesButton drawing={drawing} onToggle={() => setDrawing((on) => !on)} /> : null;

  const modal = (
    <NoteModal
      open={draft !== null || editing !== null}
      editing={editing !== null}
      text={text}
      problem={problem}
      saving={create.isPending || update.isPending}
      onChange={(value) => {
        setText(value);
        setProblem(null);
      }}
      onSave={save}
      onDelete={del}
      onClose={close}
    />
  );

  return { notes: notes.data ?? [], drawing, onDraw, open, button, modal };
}
