import { useState } from 'react';
import { Button, Empty, Form, Input, InputNumber, Modal, Pagination, Spin } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { MSG, type OwnBook, type OwnBookRequest } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { usePageParam } from '../../../components/personal-list.tsx';
import {
  removeOwnBook,
  saveBook,
  submitOwnBooks,
  unpublishOwnBook,
  useOwnBooks,
  useOwnMutation,
} from '../queries.ts';
import { AsideNav } from '../components/aside-nav.tsx';
import { OwnBookRow } from '../components/own-book-row.tsx';

/** The list's mutations with their toasts: submit for publication, withdraw, delete. */
function useOwnBookActions() {
  const remove = useOwnMutation(removeOwnBook);
  const submit = useOwnMutation(submitOwnBooks);
  const unpublish = useOwnMutation(unpublishOwnBook);
  return {
    submitting: submit.isPending,
    /** Submits the books `ids`, then runs `submitted` (after the toast). */
    submit: (ids: number[], submitted: () => void) =>
      void submit.mutateAsync(ids).then(
        () => {
          toast.success(MSG.ownSubmitted);
          submitted();
        },
        () => undefined,
      ),
    unpublish: (id: number) =>
      void unpublish.mutateAsync(id).then(
        () => toast.success(MSG.ownUnpublished),
        () => undefined,
      ),
    remove: (id: number) =>
      void remove.mutateAsync(id).then(
        () => toast.success(MSG.deleteSuccess),
        () => undefined,
      ),
  };
}

/**
 * /OCRAside/HholeBook: the user's own books (5 on the first page, then 6) with their review state;
 * add, edit, delete, and submit several for publication.
 */
export function OwnBooksPage() {
  useDocumentTitle('我的古籍');
  const [page, setPage] = usePageParam();
  const books = useOwnBooks(page);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<OwnBook | 'new' | null>(null);
  const actions = useOwnBookActions();

  return (
    <div className="page own-books">
      <Breadcrumbs second={{ title: '古籍 OCR 服务', to: '/OCRAside' }} third={{ title: '整本古籍' }} />
      <AsideNav />
      <div className="own-head">
        <h1 className="page-title">整本古籍</h1>
        <div className="own-actions">
          <Button icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
            添加古籍
          </Button>
          <Button
            type="primary"
            disabled={selected.length === 0}
            loading={actions.submitting}
            onClick={() => actions.submit(selected, () => setSelected([]))}
          >
            提交发布（{selected.length}）
          </Button>
        </div>
      </div>
      {books.isPending ? (
        <Spin />
      ) : !books.data || books.data.records.length === 0 ? (
        <Empty description="还没有自己的古籍。点「添加古籍」，再在卷册中上传页面图像的 zip 压缩包。" />
      ) : (
        <>
          <ul className="own-list" aria-label="我的古籍">
            {books.data.records.map((book) => (
              <OwnBookRow
                key={book.catalogId}
                book={book}
                checked={selected.includes(book.catalogId)}
                onCheck={(checked) =>
                  setSelected((old) =>
                    checked ? [...old, book.catalogId] : old.filter((id) => id !== book.catalogId),
                  )
                }
                onEdit={() => setEditing(book)}
                onUnpublish={() => actions.unpublish(book.catalogId)}
                onRemove={() => actions.remove(book.catalogId)}
              />
            ))}
          </ul>
          <Pagination
            className="personal-pager"
            current={page}
            total={books.data.pages}
            pageSize={1}
            showSizeChanger={false}
            showTotal={() => `共 ${books.data.total} 部`}
            onChange={setPage}
          />
        </>
      )}
      {editing && <BookModal book={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function BookModal({ book, onClose }: { book: OwnBook | null; onClose: () => void }) {
  const [form] = Form.useForm<OwnBookRequest>();
  const save = useOwnMutation(saveBook);
  return (
    <Modal
      open
      title={book ? '编辑古籍' : '添加古籍'}
      okText="保存"
      cancelText="取消"
      confirmLoading={save.isPending}
      onCancel={onClose}
      onOk={() => form.submit()}
    >
      <Form<OwnBookRequest>
        form={form}
        layout="vertical"
        initialValues={
          book
            ? {
                title: book.title,
                actualVolume: book.actualVolume ?? 1,
                author: book.author ?? '',
                publishDynasty: book.publishDynasty ?? '',
                editionType: book.editionType ?? '',
              }
            : { actualVolume: 1 }
        }
        onFinish={(values) =>
          void save.mutateAsync({ id: book?.catalogId ?? null, book: values }).then(
            () => {
              toast.success(book ? MSG.ownBookChanged : MSG.ownBookAdded);
              onClose();
            },
            () => undefined,
          )
        }
      >
        <Form.Item
          name="title"
          label="书名"
          rules={[{ required: true, whitespace: true, message: MSG.ownTitleRequired }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="actualVolume"
          label="卷数"
          rules={[{ required: true, message: MSG.ownVolumeCountRequired }]}
        >
          <InputNumber min={1} max={9999} precision={0} />
        </Form.Item>
        <Form.Item
          name="author"
          label="作者"
          rules={[{ required: true, whitespace: true, message: MSG.ownAuthorRequired }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item
          name="publishDynasty"
          label="版本朝代"
          rules={[{ required: true, whitespace: true, message: MSG.ownDynastyRequired }]}
        >
          <Input maxLength={100} placeholder="如：清" />
        </Form.Item>
        <Form.Item
          name="editionType"
          label="版本类型"
          rules={[{ required: true, whitespace: true, message: MSG.ownEditionTypeRequired }]}
        >
          <Input maxLength={100} placeholder="如：刻本、抄本" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
