import { useState } from 'react';
import { Button, Form, Input, Modal, Select, Space, Table } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  ADMIN_BOOK_PAGE_SIZE,
  ADMIN_BOOK_STATES,
  MSG,
  type AdminBook,
  type UpdateBookRequest,
} from '@guji/shared';
import { adminKeys, createBook, removeBook, updateBook, useAdminBooks } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { BookFieldItems, toBookFields, toUpdateRequest, type BookFields } from '../../catalog/index.ts';
import { catalogKeys } from '../../catalog/queries.ts';
import { TableScroll } from '../../../components/table-scroll.tsx';
import { BookText } from '../../../components/book-text.tsx';
import { catalogueColumns } from './catalogue-columns.tsx';

type State = keyof typeof ADMIN_BOOK_STATES;

/** The catalogue's writes from its rows (a field changed, a book deleted), each refreshing the lists. */
function useBookWrites() {
  const queryClient = useQueryClient();
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
  return { refresh, patch, remove };
}

/** The catalogue's search box, state filter and 新建古籍 button. */
function CatalogueToolbar({
  state,
  onSearch,
  onState,
  onNew,
}: {
  state: State | undefined;
  onSearch: (text: string) => void;
  onState: (state: State | undefined) => void;
  onNew: () => void;
}) {
  return (
    <Space wrap className="admin-toolbar">
      <Input.Search
        aria-label="搜索古籍"
        placeholder="书名或索书号"
        allowClear
        style={{ width: 240 }}
        onSearch={(value) => onSearch(value.trim())}
      />
      <Select
        aria-label="古籍状态"
        allowClear
        placeholder="全部状态"
        style={{ width: 150 }}
        value={state}
        onChange={onState}
        options={Object.entries(ADMIN_BOOK_STATES).map(([value, label]) => ({ value, label }))}
      />
      <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={onNew}>
        新建古籍
      </Button>
    </Space>
  );
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
  const { refresh, patch, remove } = useBookWrites();
  const books = useAdminBooks(search, state, page);

  return (
    <div className="admin-catalogue">
      <CatalogueToolbar
        state={state}
        onSearch={(text) => {
          setText(text);
          setPage(1);
        }}
        onState={(value) => {
          setState(value);
          setPage(1);
        }}
        onNew={() => setEditing('new')}
      />
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
          columns={catalogueColumns({ patch, edit: setEditing, remove })}
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
