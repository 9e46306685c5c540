import { useState } from 'react';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  TreeSelect,
} from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  ADMIN_BOOK_PAGE_SIZE,
  ADMIN_BOOK_STATES,
  adminBooksApi,
  catalogApi,
  marcApi,
  MSG,
  type AdminBook,
  type CreateBookRequest,
  type UpdateBookRequest,
} from '@guji/shared';
import { call, hrefOf } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { blankToNull } from '../../catalog/index.ts';
import { catalogKeys, useClassifications } from '../../catalog/queries.ts';
import { classNodes } from '../class-tree.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

type State = keyof typeof ADMIN_BOOK_STATES;

/** The form's values: every catalogue field of spec §3 a person enters, and the two switches. */
interface BookForm {
  title: string;
  author?: string | null;
  publishDynasty?: string | null;
  coverageDynasty?: string | null;
  editionType?: string | null;
  callNumber?: string | null;
  classCode?: string | null;
  actualVolume?: number | null;
  bookNumber?: number | null;
  isVisible: boolean;
  isOpen: boolean;
}

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
  const books = useQuery({
    queryKey: ['admin-books', search, state, page],
    queryFn: () => call(adminBooksApi.list, { query: { pageNum: page, text: search, state } }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['admin-books'] });
    void queryClient.invalidateQueries({ queryKey: catalogKeys.books });
  };
  const patch = (book: AdminBook, changes: UpdateBookRequest, message: string) =>
    void call(catalogApi.update, { params: { catalogId: book.catalogId }, body: changes }).then(() => {
      toast.success(message);
      refresh();
    }, refresh);
  const remove = (book: AdminBook) =>
    void call(adminBooksApi.remove, { params: { id: book.catalogId } }).then(
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
          columns={[
            {
              title: '书名',
              key: 'title',
              render: (_, b) => (
                <span>
                  <Link to={`/SearchPage/${b.catalogId}`} {...noConvert}>
                    {b.title}
                  </Link>
                  {b.owner !== null && (
                    <div className="admin-stats">
                      读者上传：<BookText>{b.owner}</BookText>
                    </div>
                  )}
                </span>
              ),
            },
            {
              title: '著者',
              dataIndex: 'author',
              render: (v: string | null) => <BookText>{v ?? ''}</BookText>,
            },
            {
              title: '索书号',
              dataIndex: 'callNumber',
              render: (v: string | null) => <BookText>{v ?? ''}</BookText>,
            },
            { title: '分类', dataIndex: 'classCode', render: (v: string | null) => v ?? '' },
            {
              title: '版本',
              dataIndex: 'coverageDynasty',
              render: (v: string | null) => <BookText>{v ?? ''}</BookText>,
            },
            {
              title: '卷册/页',
              key: 'size',
              className: 'nowrap',
              render: (_, b) => `${b.volumeCount} 册 / ${b.pageCount} 页`,
            },
            {
              title: '公开',
              key: 'visible',
              render: (_, b) => (
                <Switch
                  size="small"
                  aria-label={`公开显示《${b.title}》`}
                  checked={b.isVisible}
                  onChange={(on) => patch(b, { isVisible: on }, on ? '已公开显示' : '已隐藏')}
                />
              ),
            },
            {
              title: '在线阅览',
              key: 'open',
              render: (_, b) => (
                <Switch
                  size="small"
                  aria-label={`在线阅览《${b.title}》`}
                  checked={b.isOpen}
                  onChange={(on) => patch(b, { isOpen: on }, on ? '已开放在线阅览' : '已改为仅在阅览室阅览')}
                />
              ),
            },
            {
              title: '操作',
              key: 'actions',
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
  const [form] = Form.useForm<BookForm>();
  const [saving, setSaving] = useState(false);
  const classes = useClassifications();
  const save = (values: BookForm) => {
    const body = {
      title: values.title.trim(),
      author: blankToNull(values.author),
      publishDynasty: blankToNull(values.publishDynasty),
      coverageDynasty: blankToNull(values.coverageDynasty),
      editionType: blankToNull(values.editionType),
      callNumber: blankToNull(values.callNumber),
      classCode: values.classCode ?? null,
      actualVolume: values.actualVolume ?? null,
      bookNumber: values.bookNumber ?? null,
      isVisible: values.isVisible,
      isOpen: values.isOpen,
    } satisfies CreateBookRequest & UpdateBookRequest;
    setSaving(true);
    (book
      ? call(catalogApi.update, { params: { catalogId: book.catalogId }, body })
      : call(adminBooksApi.create, { body })
    )
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
      <Form<BookForm>
        form={form}
        layout="vertical"
        initialValues={
          book ? { ...book, classCode: book.classCode ?? undefined } : { isVisible: false, isOpen: false }
        }
        onFinish={save}
      >
        <Form.Item
          name="title"
          label="书名"
          rules={[{ required: true, whitespace: true, message: '请输入书名' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item name="author" label="著者">
          <Input maxLength={200} />
        </Form.Item>
        <Space wrap>
          <Form.Item name="publishDynasty" label="出版朝代">
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="editionType" label="版本类型">
            <Input maxLength={100} placeholder="刻本、抄本、稿本…" />
          </Form.Item>
        </Space>
        <Form.Item name="coverageDynasty" label="版本">
          <Input maxLength={200} placeholder="如：清乾隆武英殿刻本" />
        </Form.Item>
        <Space wrap>
          <Form.Item name="callNumber" label="索书号">
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="classCode" label="分类">
            <TreeSelect
              allowClear
              style={{ width: 220 }}
              placeholder="选择分类"
              treeData={classNodes(classes.data ?? [])}
              treeDefaultExpandAll
            />
          </Form.Item>
        </Space>
        <Space wrap>
          <Form.Item name="actualVolume" label="卷数">
            <InputNumber min={0} max={100000} precision={0} />
          </Form.Item>
          <Form.Item name="bookNumber" label="册数">
            <InputNumber min={0} max={100000} precision={0} />
          </Form.Item>
        </Space>
        <Space wrap size="large">
          <Form.Item name="isVisible" label="公开显示" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="isOpen" label="在线阅览（阅览室外）" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}
