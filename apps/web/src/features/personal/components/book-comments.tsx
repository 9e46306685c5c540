import { useState } from 'react';
import { Button, Empty, Input, Pagination, Popconfirm, Spin, Tag } from 'antd';
import { Link } from 'react-router';
import { hasRole, MSG, PERSONAL_LIMITS, type BookComment } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { useSession } from '../../account/queries.ts';
import { useBookComments, useCommentMutations, usePostComment } from '../queries.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { BookText, noConvert } from '../../../components/book-text.tsx';

/** Checks a comment as the server does (spec-style messages), before sending it. */
export function commentProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return MSG.commentEmpty;
  if ([...trimmed].length > PERSONAL_LIMITS.commentMax) return MSG.commentTooLong;
  if (/<\s*\/?\s*[a-zA-Z!][^>]*>/.test(trimmed)) return MSG.noHtml;
  return null;
}

/** The signed-in reader's comment box: the text, its problem if any, and the send button. */
function CommentForm({
  text,
  problem,
  pending,
  onChange,
  onSubmit,
}: {
  text: string;
  problem: string | null;
  pending: boolean;
  onChange: (text: string) => void;
  onSubmit: () => void;
}) {
  return (
    <div className="comment-form">
      <label htmlFor="comment-text" className="visually-hidden">
        评论内容
      </label>
      <Input.TextArea
        id="comment-text"
        rows={3}
        value={text}
        placeholder="写下对本书的评论（纯文本，最多 500 字）"
        maxLength={PERSONAL_LIMITS.commentMax + 20}
        showCount={{ formatter: ({ count }) => `${count} / ${PERSONAL_LIMITS.commentMax}` }}
        status={problem ? 'error' : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {problem && (
        <div className="field-error" role="alert">
          {problem}
        </div>
      )}
      <Button type="primary" onClick={onSubmit} loading={pending}>
        发表评论
      </Button>
    </div>
  );
}

/** One comment: author, time, hidden mark, text; delete for its author, hide or show for staff. */
function CommentItem({
  comment: c,
  staff,
  onRemove,
  onToggleHidden,
}: {
  comment: BookComment;
  staff: boolean;
  onRemove: () => void;
  onToggleHidden: () => void;
}) {
  return (
    <li className="comment">
      <div className="comment-head">
        <BookText className="comment-author">{c.nickName}</BookText>
        <time dateTime={c.createdAt}>{formatTime(c.createdAt)}</time>
        {c.hidden && <Tag>已隐藏</Tag>}
      </div>
      <p className="comment-text" {...noConvert}>
        {c.text}
      </p>
      <div className="comment-actions">
        {c.mine && (
          <Popconfirm title="删除这条评论？" okText="删除" cancelText="取消" onConfirm={onRemove}>
            <Button size="small" type="link">
              删除
            </Button>
          </Popconfirm>
        )}
        {staff && (
          <Button size="small" type="link" onClick={onToggleHidden}>
            {c.hidden ? '取消隐藏' : '隐藏'}
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * A book's comments on its page: newest first with nickname and time, 10 a page; signed-in readers
 * write one (plain text, at most 500 characters) and delete their own; catalogue staff hide one.
 */
export function BookComments({ catalogId }: { catalogId: number }) {
  const user = useSession().data?.user;
  const staff = user ? hasRole(user.roles, 'catalogAdmin') : false;
  const [page, setPage] = useState(1);
  const comments = useBookComments(catalogId, page);
  const post = usePostComment(catalogId);
  const { remove, hide } = useCommentMutations();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = () => {
    const found = commentProblem(text);
    setProblem(found);
    if (found) return;
    void post.mutateAsync(text.trim()).then(
      (result) => {
        toast.success(result.message ?? MSG.commentPosted);
        setText('');
        setPage(1);
      },
      () => undefined,
    );
  };

  return (
    <section className="book-comments" aria-labelledby="book-comments-title">
      <h2 id="book-comments-title">读者评论{comments.data ? `（${comments.data.total}）` : ''}</h2>
      {user ? (
        <CommentForm
          text={text}
          problem={problem}
          pending={post.isPending}
          onChange={(value) => {
            setText(value);
            setProblem(null);
          }}
          onSubmit={submit}
        />
      ) : (
        <p className="comment-login">
          <Link to="/Login">登录</Link>后可发表评论。
        </p>
      )}
      {comments.isPending ? (
        <Spin />
      ) : !comments.data || comments.data.records.length === 0 ? (
        <Empty description="暂无评论" />
      ) : (
        <ul className="comment-list" aria-label="评论列表">
          {comments.data.records.map((c) => (
            <CommentItem
              key={c.id}
              comment={c}
              staff={staff}
              onRemove={() => void remove.mutateAsync(c.id).then(() => toast.success(MSG.deleteSuccess))}
              onToggleHidden={() =>
                void hide.mutateAsync({ id: c.id, hidden: !c.hidden }).catch(() => undefined)
              }
            />
          ))}
        </ul>
      )}
      {comments.data && comments.data.total > comments.data.pageSize && (
        <Pagination
          current={page}
          pageSize={comments.data.pageSize}
          total={comments.data.total}
          showSizeChanger={false}
          onChange={setPage}
        />
      )}
    </section>
  );
}
