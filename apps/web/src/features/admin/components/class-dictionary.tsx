import { useState } from 'react';
import { Button, Input, Popconfirm, Space, Tree } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { Classification } from '@guji/shared';
import { catalogKeys, useClassifications } from '../../catalog/queries.ts';
import { createClass, removeClass, renameClass } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { classNodes } from '../../catalog/index.ts';

/** 分类字典: the classification tree; add a class under the selected one, rename it, delete an unused one. */
export function ClassDictionary() {
  const queryClient = useQueryClient();
  const tree = useClassifications();
  const [selected, setSelected] = useState<Classification | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [rename, setRename] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKeys.classifications });
  const find = (nodes: Classification[], id: number): Classification | null => {
    for (const n of nodes) {
      if (n.dictionaryId === id) return n;
      const inner = find(n.children, id);
      if (inner) return inner;
    }
    return null;
  };
  return (
    <div className="class-dictionary">
      <Tree
        // Remounted with new data, so a class just added under a leaf shows expanded.
        key={tree.dataUpdatedAt}
        aria-label="分类树"
        defaultExpandAll
        treeData={classNodes(tree.data ?? [])}
        selectedKeys={selected ? [selected.dictionaryId] : []}
        onSelect={(keys) => {
          const node = keys.length > 0 ? find(tree.data ?? [], Number(keys[0])) : null;
          setSelected(node);
          setRename(node?.dictionaryName ?? '');
          setCode(node ? `${node.dictionaryValue}.` : '');
        }}
      />
      <div className="admin-form">
        <h2 className="personal-subtitle">
          {selected ? `在「${selected.dictionaryName}」下添加` : '添加顶级分类'}
        </h2>
        <Space wrap>
          <Input
            aria-label="分类代码"
            placeholder="代码，如 JING.LI"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
          />
          <Input
            aria-label="分类名称"
            placeholder="名称，如 禮類"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <Button
            type="primary"
            onClick={() =>
              void createClass(selected?.dictionaryId ?? null, code.trim(), name.trim()).then(
                (r) => {
                  toast.success(r.message ?? '');
                  setName('');
                  refresh();
                },
                () => undefined,
              )
            }
          >
            添加
          </Button>
        </Space>
        {selected && (
          <>
            <h2 className="personal-subtitle">修改「{selected.dictionaryName}」</h2>
            <Space wrap>
              <Input aria-label="新名称" value={rename} onChange={(e) => setRename(e.target.value)} />
              <Button
                onClick={() =>
                  void renameClass(selected.dictionaryId, rename.trim()).then(
                    (r) => {
                      toast.success(r.message ?? '');
                      refresh();
                    },
                    () => undefined,
                  )
                }
              >
                保存名称
              </Button>
              <Popconfirm
                title={`删除分类「${selected.dictionaryName}」？`}
                okText="删除"
                cancelText="取消"
                onConfirm={() =>
                  void removeClass(selected.dictionaryId).then(
                    (r) => {
                      toast.success(r.message ?? '');
                      setSelected(null);
                      refresh();
                    },
                    () => undefined,
                  )
                }
              >
                <Button danger>删除分类</Button>
              </Popconfirm>
            </Space>
          </>
        )}
      </div>
    </div>
  );
}
