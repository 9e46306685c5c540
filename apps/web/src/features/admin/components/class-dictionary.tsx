import { useState } from 'react';
import { Button, Input, Popconfirm, Space, Tree } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { Classification } from '@guji/shared';
import { catalogKeys, useClassifications } from '../../catalog/queries.ts';
import { createClass, removeClass, renameClass } from '../queries.ts';
import { toast } from '../../../components/toast.ts';
import { classNodes } from '../../catalog/index.ts';

/** The class with this id anywhere in the tree, or null. */
function findClass(nodes: Classification[], id: number): Classification | null {
  for (const n of nodes) {
    if (n.dictionaryId === id) return n;
    const inner = findClass(n.children, id);
    if (inner) return inner;
  }
  return null;
}

/** The selected class renamed or deleted. */
function ClassEditor({
  selected,
  rename,
  onRename,
  onSaved,
  onRemoved,
}: {
  selected: Classification;
  rename: string;
  onRename: (name: string) => void;
  onSaved: () => void;
  onRemoved: () => void;
}) {
  return (
    <>
      <h2 className="personal-subtitle">修改「{selected.dictionaryName}」</h2>
      <Space wrap>
        <Input aria-label="新名称" value={rename} onChange={(e) => onRename(e.target.value)} />
        <Button
          onClick={() =>
            void renameClass(selected.dictionaryId, rename.trim()).then(
              (r) => {
                toast.success(r.message ?? '');
                onSaved();
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
                onRemoved();
              },
              () => undefined,
            )
          }
        >
          <Button danger>删除分类</Button>
        </Popconfirm>
      </Space>
    </>
  );
}

/** 分类字典: the classification tree; add a class under the selected one, rename it, delete an unused one. */
export function ClassDictionary() {
  const queryClient = useQueryClient();
  const tree = useClassifications();
  const [selected, setSelected] = useState<Classification | null>(null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [rename, setRename] = useState('');
  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKeys.classifications });
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
          const node = keys.length > 0 ? findClass(tree.data ?? [], Number(keys[0])) : null;
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
          <ClassEditor
            selected={selected}
            rename={rename}
            onRename={setRename}
            onSaved={refresh}
            onRemoved={() => {
              setSelected(null);
              refresh();
            }}
          />
        )}
      </div>
    </div>
  );
}
