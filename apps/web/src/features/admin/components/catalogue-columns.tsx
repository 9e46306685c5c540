import { Button, Popconfirm, Space, Switch, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { marcApi, type AdminBook, type UpdateBookRequest } from '@guji/shared';
import { hrefOf } from '../../../api/client.ts';
import { readerPath } from '../../../lib/reader-url.ts';
import { BookText, noConvert } from '../../../components/book-text.tsx';

/** What the catalogue's rows do: change a book's fields, open its form, delete it. */
export interface CatalogueRowActions {
  patch: (book: AdminBook, changes: UpdateBookRequest, message: string) => void;
  edit: (book: AdminBook) => void;
  remove: (book: AdminBook) => void;
}

/** The title, author and (for a reader's own upload) its owner. */
function BookCell({ book }: { book: AdminBook }) {
  return (
    <div className="admin-book-cell">
      <Link to={`/SearchPage/${book.catalogId}`} {...noConvert}>
        {book.title}
      </Link>
      {book.author && (
        <div className="admin-stats">
          <BookText>{book.author}</BookText>
        </div>
      )}
      {book.owner !== null && (
        <div className="admin-stats">
          读者上传：<BookText>{book.owner}</BookText>
        </div>
      )}
    </div>
  );
}

/** The dynasty covered, with the dynasty of publication under it. */
function EditionCell({ book }: { book: AdminBook }) {
  return (
    <>
      <BookText>{book.coverageDynasty ?? ''}</BookText>
      {book.publishDynasty && (
        <div className="admin-stats">
          <BookText>{book.publishDynasty}</BookText>
        </div>
      )}
    </>
  );
}

/** The book's visibility and online reading, each a labelled switch. */
function BookSwitches({ book, patch }: { book: AdminBook; patch: CatalogueRowActions['patch'] }) {
  return (
    <div className="admin-switches">
      <label>
        <Switch
          size="small"
          aria-label={`公开显示《${book.title}》`}
          checked={book.isVisible}
          onChange={(on) => patch(book, { isVisible: on }, on ? '已公开显示' : '已隐藏')}
        />
        <span aria-hidden>公开</span>
      </label>
      <label>
        <Switch
          size="small"
          aria-label={`在线阅览《${book.title}》`}
          checked={book.isOpen}
          onChange={(on) => patch(book, { isOpen: on }, on ? '已开放在线阅览' : '已改为仅在阅览室阅览')}
        />
        <span aria-hidden>在线</span>
      </label>
    </div>
  );
}

/** A row's actions: its form, its volumes, reading it, its MARCXML, deleting it. */
function BookActions({ book, edit, remove }: { book: AdminBook } & Omit<CatalogueRowActions, 'patch'>) {
  return (
    <Space size={4} wrap>
      <Button size="small" onClick={() => edit(book)}>
        著录
      </Button>
      {book.owner === null && (
        <Link
          className="ant-btn ant-btn-default ant-btn-sm"
          to={`/FenCe/${book.catalogId}?gjtitle=${encodeURIComponent(book.title)}`}
        >
          卷册与影像
        </Link>
      )}
      {book.volumeCount > 0 && (
        <Link className="ant-btn ant-btn-default ant-btn-sm" to={readerPath({ catalogId: book.catalogId })}>
          阅读
        </Link>
      )}
      <a
        className="ant-btn ant-btn-default ant-btn-sm"
        href={hrefOf(marcApi.book, { catalogId: book.catalogId })}
        download={`book-${book.catalogId}-marc21.xml`}
        aria-label={`导出《${book.title}》的 MARCXML`}
        {...noConvert}
      >
        MARCXML
      </a>
      <Popconfirm
        title={`删除《${book.title}》及其全部卷册和页面？`}
        description="读者已收藏、笔记、评论、借阅或打印过的古籍不能删除，可改为隐藏。"
        okText="删除"
        cancelText="取消"
        onConfirm={() => remove(book)}
      >
        <Button size="small" danger>
          删除
        </Button>
      </Popconfirm>
    </Space>
  );
}

/** The catalogue table's columns, their switches and buttons wired to the given actions. */
export function catalogueColumns({ patch, edit, remove }: CatalogueRowActions): TableColumnsType<AdminBook> {
  return [
    { title: '书名 / 著者', key: 'title', width: '24%', render: (_, b) => <BookCell book={b} /> },
    {
      title: '索书号',
      dataIndex: 'callNumber',
      width: '10%',
      render: (v: string | null) => <BookText>{v ?? ''}</BookText>,
    },
    { title: '分类', dataIndex: 'classCode', width: '11%', render: (v: string | null) => v ?? '' },
    { title: '版本', key: 'edition', width: '17%', render: (_, b) => <EditionCell book={b} /> },
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
      render: (_, b) => <BookSwitches book={b} patch={patch} />,
    },
    {
      title: '操作',
      key: 'actions',
      width: 216,
      render: (_, b) => <BookActions book={b} edit={edit} remove={remove} />,
    },
  ];
}
