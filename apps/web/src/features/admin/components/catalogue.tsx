import { useState } from 'react';
import { Button, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  ADMIN_BOOK_PAGE_SIZE,
  ADMIN_BOOK_STATES,
  marcApi,
  MSG,
  type AdminBook,
  type UpdateBookRequest,
} from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { adminKeys, createBook, removeBook, updateBook, useAdminBooks } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { BookFieldItems, toBookFields, toUpdateRequest, type BookFields } from '../../catalog/index.ts';
import { catalogKeys } from '../../catalog/queries.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

type State = keyof typeof ADMIN_BOOK_STATES;

/**
 * The console's catalogue (catalogue staff): every book, hidden ones too, found by title or call
 * number; a new book catalogued by hand; each book's fields, visibility and online reading; its
 * volumes, pages and directories on the volume screens; reading it; deleting one nobody has used.
 */
export function CatalogueManager() {
  const [search, setText] = useState('');
  const [state, setState] = useState<State | undefined>(undefined);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminBook | 'new' | null>(null);
  const queryClient = useQueryClient();
  const books = useAdminBooks(search, state, page);
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: adminKeys.books });
    void queryClient.invalidateQueries({ queryKey: catalogKeys.books });
  };
  const patch = (book: AdminBook, changes: UpdateBookRequest, message: string) =>
    void updateBook(book.catalogId, changes).then(() => {
      toast.success(message);
      refresh();
    }, refresh);
  const remove = (book: AdminBook) =>
    void removeBook(book.catalogId).then(
      (result) => {
        toast.success(result.message ?? MSG.deleteSuccess);
        refresh();
      },
      () => undefined,
    );

  return (
    <div className="admin-catalogue">
      <Space wrap className="admin-toolbar">
        <Input.Search
          aria-label="搜索古籍"
          placeholder="书名或索书号"
          allowClear
          style={{ width: 240 }}
          onSearch={(value) => {
            setText(value.trim());
            setPage(1);
          }}
        />
        <Select
          aria-label="古籍状态"
          allowClear
          placeholder="全部状态"
          style={{ width: 150 }}
          value={state}
          onChange={(value: State | undefined) => {
            setState(value);
            setPage(1);
          }}
          options={Object.entries(ADMIN_BOOK_STATES).map(([value, label]) => ({ value, label }))}
        />
        <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
          新建古籍
        </Button>
      </Space>
      <TableScroll label="古籍列表">
        <Table<AdminBook>
          rowKey="catalogId"
          size="small"
          loading={books.isPending}
          dataSource={books.data?.records ?? []}
          locale={{ emptyText: search || state ? '没有符合条件的古籍' : '目录中还没有古籍' }}
          pagination={{
            current: page,
            pageSize: ADMIN_BOOK_PAGE_SIZE,
            total: books.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => `共 ${total} 种`,
            onChange: setPage,
          }}
          tableLayout="fixed"
          columns={[
            {
              title: '书名 / 著者',
              key: 'title',
              width: '24%',
              render: (_, b) => (
                <div className="admin-book-cell">
                  <Link to={`/SearchPage/${b.catalogId}`} {...noConvert}>
                    {b.title}
                  </Link>
                  {b.author && (
                    <div className="admin-stats">
                      <BookText>{b.author}</BookText>
                    </div>
                  )}
                  {b.owner !== null && (
                    <div className="admin-stats">
                      读者上传：<BookText>{b.owner}</BookText>
                    </div>
                  )}
                </div>
              ),
            },
            {
              title: '索书号',
              dataIndex: 'callNumber',
              width: '10%',
              render: (v: string | null) => <BookText>{v ?? ''}</BookText>,
            },
            { title: '分类', dataIndex: 'classCode', width: '11%', render: (v: string | null) => v ?? '' },
            {
              title: '版本',
              key: 'edition',
              width: '17%',
              render: (_, b) => (
                <>
                  <BookText>{b.coverageDynasty ?? ''}</BookText>
                  {b.publishDynasty && (
                    <div className="admin-stats">
                      <BookText>{b.publishDynasty}</BookText>
                    </div>
                  )}
                </>
              ),
            },
            {
              title: '卷册/页',
              key: 'size',
              width: 92,
              render: (_, b) => (
                <>
                  <div className="nowrap">{b.volumeCount} 册</div>
                  <div className="nowrap">{b.pageCount} 页</div>
                </>
              ),
            },
            {
              title: '公开 / 阅览',
              key: 'switches',
              width: 116,
              render: (_, b) => (
                <div className="admin-switches">
                  <label>
                    <Switch
                      size="small"
                      aria-label={`公开显示《${b.title}》`}
                      checked={b.isVisible}
                      onChange={(on) => patch(b, { isVisible: on }, on ? '已公开显示' : '已隐藏')}
                    />
                    <span aria-hidden>公开</span>
                  </label>
                  <label>
                    <Switch
                      size="small"
                      aria-label={`在线阅览《${b.title}》`}
                      checked={b.isOpen}
                      onChange={(on) =>
                        patch(b, { isOpen: on }, on ? '已开放在线阅览' : '已改为仅在阅览室阅览')
                      }
                    />
                    <span aria-hidden>在线</span>
                  </label>
                </div>
              ),
            },
            {
              title: '操作',
              key: 'actions',
              width: 216,
              render: (_, b) => (
                <Space size={4} wrap>
                  <Button size="small" onClick={() => setEditing(b)}>
                    著录
                  </Button>
                  {b.owner === null && (
                    <Link
                      className="ant-btn ant-btn-default ant-btn-sm"
                      to={`/FenCe/${b.catalogId}?gjtitle=${encodeURIComponent(b.title)}`}
                    >
                      卷册与影像
                    </Link>
                  )}
                  {b.volumeCount > 0 && (
                    <Link
                      className="ant-btn ant-btn-default ant-btn-sm"
                      to={readerPath({ catalogId: b.catalogId })}
                    >
                      阅读
                    </Link>
                  )}
                  <a
                    className="ant-btn ant-btn-default ant-btn-sm"
                    href={hrefOf(marcApi.book, { catalogId: b.catalogId })}
                    download={`book-${b.catalogId}-marc21.xml`}
                    aria-label={`导出《${b.title}》的 MARCXML`}
                    {...noConvert}
                  >
                    MARCXML
                  </a>
                  <Popconfirm
                    title={`删除《${b.title}》及其全部卷册和页面？`}
                    description="读者已收藏、笔记、评论、借阅或打印过的古籍不能删除，可改为隐藏。"
                    okText="删除"
                    cancelText="取消"
                    onConfirm={() => remove(b)}
                  >
                    <Button size="small" danger>
                      删除
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </TableScroll>
      {editing && (
        <BookFormModal
          book={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
    </div>
  );
}

function BookFormModal({
  book,
  onClose,
  onSaved,
}: {
  book: AdminBook | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<BookFields>();
  const [saving, setSaving] = useState(false);
  const save = (values: BookFields) => {
    const body = toUpdateRequest(values);
    setSaving(true);
    (book ? updateBook(book.catalogId, body) : createBook(body))
      .then(
        () => {
          toast.success(book ? MSG.modifySuccess : '古籍已添加，请继续添加卷册和页面');
          onSaved();
          onClose();
        },
        () => undefined,
      )
      .finally(() => setSaving(false));
  };
  return (
    <Modal
      open
      title={
        book ? (
          <>
            著录：<BookText>{book.title}</BookText>
          </>
        ) : (
          '新建古籍'
        )
      }
      okText="保存"
      cancelText="取消"
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
    >
      <Form<BookFields>
        form={form}
        layout="vertical"
        initialValues={book ? toBookFields(book) : { isVisible: false, isOpen: false }}
        onFinish={save}
      >
        <BookFieldItems />
      </Form>
    </Modal>
  );
}
