import type { ReactNode } from 'react';
import { Form, Input, InputNumber, Switch, TreeSelect } from 'antd';
import { BOOK_FIELD_LABELS as LABEL, type Classification } from '@guji/shared';
import type { BookFields } from '../book-form.ts';
import { classNodes } from '../class-tree.tsx';
import { useClassifications } from '../queries.ts';

type Field = keyof BookFields;

/** The fields written in words (the others are chosen or counted). */
type WrittenField =
  'title' | 'author' | 'publishDynasty' | 'editionType' | 'coverageDynasty' | 'callNumber' | 'notes';

/**
 * The fields of a book's catalogue record, for the staff forms (著录 in the console, 编辑 on the book's
 * page, publishing a reader's book): one set of fields, limits and names wherever a record is edited.
 * `only` names the fields a form asks for; by default every one.
 */
export function BookFieldItems({ only }: { only?: readonly Field[] }) {
  const classes = useClassifications();
  const fields: Record<Field, ReactNode> = {
    ...writtenItems(),
    ...chosenItems(classes.data ?? []),
  };
  const shown = (field: Field) => (!only || only.includes(field) ? fields[field] : null);
  /** Two fields side by side (one under the other on a phone). */
  const row = (a: Field, b: Field) =>
    shown(a) || shown(b) ? (
      <div className="form-row">
        {shown(a)}
        {shown(b)}
      </div>
    ) : null;
  return (
    <>
      {shown('title')}
      {shown('author')}
      {row('publishDynasty', 'editionType')}
      {shown('coverageDynasty')}
      {row('callNumber', 'classCode')}
      {row('actualVolume', 'bookNumber')}
      {shown('notes')}
      {row('isVisible', 'isOpen')}
    </>
  );
}

/** The fields that describe the book in words: its title, author, edition, call number and notes. */
function writtenItems(): Record<WrittenField, ReactNode> {
  return {
    title: (
      <Form.Item
        name="title"
        label={LABEL.title}
        rules={[{ required: true, whitespace: true, message: '请输入书名' }]}
      >
        <Input maxLength={200} />
      </Form.Item>
    ),
    author: (
      <Form.Item name="author" label={LABEL.author}>
        <Input maxLength={200} />
      </Form.Item>
    ),
    publishDynasty: (
      <Form.Item name="publishDynasty" label={LABEL.publishDynasty}>
        <Input maxLength={100} placeholder="如：清" />
      </Form.Item>
    ),
    editionType: (
      <Form.Item name="editionType" label={LABEL.editionType}>
        <Input maxLength={100} placeholder="刻本、抄本、稿本…" />
      </Form.Item>
    ),
    coverageDynasty: (
      <Form.Item name="coverageDynasty" label={LABEL.coverageDynasty}>
        <Input maxLength={200} placeholder="如：清乾隆武英殿刻本" />
      </Form.Item>
    ),
    callNumber: (
      <Form.Item name="callNumber" label={LABEL.callNumber}>
        <Input maxLength={100} />
      </Form.Item>
    ),
    notes: (
      <Form.Item name="notes" label={LABEL.notes}>
        <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 8 }} />
      </Form.Item>
    ),
  };
}

/** The fields chosen or counted rather than written: class, volumes and books, and who may see and read it. */
function chosenItems(classes: Classification[]): Record<Exclude<Field, WrittenField>, ReactNode> {
  return {
    classCode: (
      <Form.Item name="classCode" label={LABEL.classCode}>
        <TreeSelect
          allowClear
          showSearch
          treeNodeFilterProp="label"
          placeholder="选择分类"
          treeData={classNodes(classes)}
          treeDefaultExpandAll
        />
      </Form.Item>
    ),
    actualVolume: (
      <Form.Item name="actualVolume" label={LABEL.actualVolume}>
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    ),
    bookNumber: (
      <Form.Item name="bookNumber" label={LABEL.bookNumber}>
        <InputNumber min={0} max={100000} precision={0} className="full-width" />
      </Form.Item>
    ),
    isVisible: (
      <Form.Item name="isVisible" label={LABEL.isVisible} valuePropName="checked">
        <Switch />
      </Form.Item>
    ),
    isOpen: (
      <Form.Item name="isOpen" label="在线阅览（阅览室外）" valuePropName="checked">
        <Switch />
      </Form.Item>
    ),
  };
}
