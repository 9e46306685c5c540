import { useState } from 'react';
import {
  Button,
  Checkbox,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Pagination,
  Popconfirm,
  Spin,
  Tag,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { Link } from 'react-router';
import { MSG, OWN_STATUS_LABELS, type OwnBook, type OwnBookRequest, OWN_STATUS } from '@guji/shared';
import { Breadcrumbs } from '../../../components/breadcrumbs.tsx';
import { toast } from '../../../components/toast.ts';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { BookCover } from '../../../components/book-cover.tsx';
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
import { BookText } from '../../../components/book-text.tsx';

const STATUS_COLOURS: Record<string, string> = {
  '0': 'default',
  '1': 'processing',
  '2': 'success',
  '3': 'error',
};

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
  const remove = useOwnMutation(removeOwnBook);
  const submit = useOwnMutation(submitOwnBooks);
  const unpublish = useOwnMutation(unpublishOwnBook);

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
            loading={submit.isPending}
            onClick={() =>
              void submit.mutateAsync(selected).then(
                () => {
                  toast.success(MSG.ownSubmitted);
                  setSelected([]);
                },
                () => undefined,
              )
            }
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
              <li key={book.catalogId} className="own-row">
                <Checkbox
                  aria-label={`选择《${book.title}》`}
                  checked={selected.includes(book.catalogId)}
                  // Only books not submitted yet, or refused, can be submitted.
                  disabled={
                    book.auditStatus === OWN_STATUS.reviewing || book.auditStatus === OWN_STATUS.published
                  }
                  onChange={(e) =>
                    setSelected((old) =>
                      e.target.checked ? [...old, book.catalogId] : old.filter((id) => id !== book.catalogId),
                    )
                  }
                />
                <BookCover title={book.title} coverUrl={book.coverUrl} width={64} height={64} />
                <div className="own-info">
                  <BookText className="personal-book-title">{book.title}</BookText>
                  <div className="personal-book-meta">
                    <BookText>{book.author}</BookText> · <BookText>{book.publishDynasty}</BookText>{' '}
                    <BookText>{book.editionType}</BookText> · <BookText>{book.actualVolume ?? '—'}</BookText>{' '}
                    卷 · {book.volumeCount} 册 {book.pageCount} 页
                  </div>
                  <div className="personal-status">
                    <Tag color={STATUS_COLOURS[book.auditStatus]}>{OWN_STATUS_LABELS[book.auditStatus]}</Tag>
                    {book.auditStatus === OWN_STATUS.refused && book.refuseReason && (
                      <span className="refuse-reason">
                        原因：<BookText>{book.refuseReason}</BookText>
                      </span>
                    )}
                  </div>
                </div>
                <div className="personal-actions">
                  <Link
                    to={`/FenCe/${book.catalogId}?gjtitle=${encodeURIComponent(book.title)}`}
                    className="ant-btn ant-btn-default"
                  >
                    卷册管理
                  </Link>
                  {/* Under review or published a book is frozen; withdrawing it makes it a draft again. */}
                  <Button
                    disabled={
                      book.auditStatus === OWN_STATUS.reviewing || book.auditStatus === OWN_STATUS.published
                    }
                    onClick={() => setEditing(book)}
                  >
                    编辑
                  </Button>
                  {(book.auditStatus === OWN_STATUS.reviewing ||
                    book.auditStatus === OWN_STATUS.published) && (
                    <Popconfirm
                      title={`撤回《${book.title}》？撤回后不再公开，修改后需重新提交审核。`}
                      okText="撤回"
                      cancelText="取消"
                      onConfirm={() =>
                        void unpublish.mutateAsync(book.catalogId).then(
                          () => toast.success(MSG.ownUnpublished),
                          () => undefined,
                        )
                      }
                    >
                      <Button>{book.auditStatus === OWN_STATUS.published ? '撤回出版' : '撤回审核'}</Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={`删除《${book.title}》及其全部卷册和页面？`}
                    okText="删除"
                    cancelText="取消"
                    onConfirm={() =>
                      void remove.mutateAsync(book.catalogId).then(
                        () => toast.success(MSG.deleteSuccess),
                        () => undefined,
                      )
                    }
                  >
                    {/* A published book is withdrawn before it can be deleted (the server refuses it too). */}
                    <Button danger disabled={book.auditStatus === OWN_STATUS.published}>
                      删除
                    </Button>
                  </Popconfirm>
                </div>
              </li>
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
