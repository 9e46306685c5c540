import { useState } from 'react';
import { Link } from 'react-router';
import { Button, Input, Modal, Popconfirm, Space } from 'antd';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  API_TOKEN_LIMITS,
  CreateApiTokenRequest,
  PUBLIC_API_PAGE,
  type ApiToken,
  type CreatedApiToken,
} from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { apiTokensKey, createApiToken, revokeApiToken, useApiTokens } from '../queries.ts';
import { formatTime } from '../../../components/personal-list.tsx';
import { toast } from '../../../components/toast.ts';

/**
 * 我的信息 → API 令牌: the reader's personal tokens for the public read API (created, listed by name
 * and prefix, revoked). A new token's secret is shown once, in a dialog, and never again.
 */
export function ApiTokensSection() {
  const queryClient = useQueryClient();
  const list = useApiTokens();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiTokensKey });

  const create = useMutation({
    mutationFn: (body: CreateApiTokenRequest) => createApiToken(body),
    onSuccess: (token) => {
      setCreated(token);
      setName('');
      void refresh();
    },
    onError: (failure) => setError(serverMessage(failure) ?? '创建失败，请稍后再试'),
  });
  const submit = () => {
    const checked = CreateApiTokenRequest.safeParse({ name });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? '令牌名称不正确');
      return;
    }
    setError(null);
    create.mutate(checked.data);
  };
  const revoke = (token: ApiToken) =>
    revokeApiToken(token.id).then(
      () => {
        toast.success(`令牌「${token.name}」已撤销`);
        return refresh();
      },
      () => undefined,
    );

  const tokens = list.data?.tokens ?? [];
  const full = tokens.length >= API_TOKEN_LIMITS.perUser;
  return (
    <section className="api-tokens" aria-labelledby="api-tokens-title">
      <h2 id="api-tokens-title" className="api-tokens-title">
        API 令牌
      </h2>
      <p className="form-note">
        研究者可凭令牌用程序读取目录、书籍结构、页面文字（含字框）和全文检索，权限与您在本站相同。
        <Link to={PUBLIC_API_PAGE}>查看接口说明</Link>
      </p>
      {list.data && (
        <p className="form-note">
          每个令牌每分钟最多 {list.data.tokenRateLimitPerMinute} 次请求；每人最多 {list.data.maxTokens}{' '}
          个令牌。
        </p>
      )}
      <NewTokenForm
        name={name}
        error={error}
        full={full}
        creating={create.isPending}
        onNameChange={(value) => {
          setName(value);
          setError(null);
        }}
        onSubmit={submit}
      />
      <ApiTokenList list={list} tokens={tokens} onRevoke={(token) => void revoke(token)} />
      <CreatedTokenModal created={created} onClose={() => setCreated(null)} />
    </section>
  );
}

/** The new token's name and 新建令牌, with why it cannot be created (a bad name, the limit reached). */
function NewTokenForm({
  name,
  error,
  full,
  creating,
  onNameChange,
  onSubmit,
}: {
  name: string;
  error: string | null;
  full: boolean;
  creating: boolean;
  onNameChange: (name: string) => void;
  onSubmit: () => void;
}) {
  return (
    <>
      <div className="api-token-create">
        <Input
          aria-label="令牌名称"
          placeholder="令牌名称，如：论文数据整理"
          value={name}
          maxLength={API_TOKEN_LIMITS.nameMax}
          disabled={full}
          status={error ? 'error' : undefined}
          onChange={(event) => onNameChange(event.target.value)}
          onPressEnter={onSubmit}
        />
        <Button type="primary" onClick={onSubmit} loading={creating} disabled={full}>
          新建令牌
        </Button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {full && <p className="form-note">令牌已达上限，请先撤销不再使用的令牌。</p>}
    </>
  );
}

/** The reader's tokens by name and prefix, with when each was made and last used, each revocable. */
function ApiTokenList({
  list,
  tokens,
  onRevoke,
}: {
  list: ReturnType<typeof useApiTokens>;
  tokens: ApiToken[];
  onRevoke: (token: ApiToken) => void;
}) {
  if (list.isError) {
    return (
      <p className="api-tokens-empty" role="alert">
        令牌列表加载失败。
        <Button type="link" onClick={() => void list.refetch()}>
          重试
        </Button>
      </p>
    );
  }
  if (list.isPending) return <p className="api-tokens-empty">正在加载…</p>;
  if (tokens.length === 0) return <p className="api-tokens-empty">还没有 API 令牌。</p>;
  return (
    <ul className="api-token-list" aria-label="我的 API 令牌">
      {tokens.map((token) => (
        <li key={token.id} className="api-token">
          <div className="api-token-main">
            <span className="api-token-name">{token.name}</span>
            <code className="api-token-prefix">{token.prefix}…</code>
          </div>
          <div className="api-token-meta">
            <span>创建于 {formatTime(token.createdAt)}</span>
            <span>{token.lastUsedAt ? `最近使用 ${formatTime(token.lastUsedAt)}` : '尚未使用'}</span>
          </div>
          <Popconfirm
            title="撤销后，使用该令牌的程序将立即无法访问"
            okText="撤销"
            cancelText="取消"
            onConfirm={() => onRevoke(token)}
          >
            <Button size="small" danger>
              撤销
            </Button>
          </Popconfirm>
        </li>
      ))}
    </ul>
  );
}

/** Shows a new token's secret, the only time it is shown, with a copy button; `created` null keeps it closed. */
function CreatedTokenModal({ created, onClose }: { created: CreatedApiToken | null; onClose: () => void }) {
  return (
    <Modal
      open={created !== null}
      title="新的 API 令牌"
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已保存
        </Button>
      }
    >
      <p>
        令牌「{created?.name}」已创建。<strong>它只显示这一次</strong>
        ，请立即复制并妥善保存；遗失后只能撤销并新建。
      </p>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly aria-label="令牌" value={created?.secret ?? ''} className="api-token-secret" />
        <Button
          onClick={() =>
            void navigator.clipboard.writeText(created?.secret ?? '').then(
              () => toast.success('已复制'),
              () => toast.error('无法复制，请手动选中复制'),
            )
          }
        >
          复制
        </Button>
      </Space.Compact>
      <p className="form-note">请求时放在请求头中：Authorization: Bearer &lt;令牌&gt;</p>
    </Modal>
  );
}
