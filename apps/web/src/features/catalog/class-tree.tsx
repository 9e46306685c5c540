import type { ReactNode } from 'react';
import type { Classification } from '@guji/shared';
import { BookText } from '../../components/book-text.tsx';

/**
 * A class as antd's Tree (by `key`) and TreeSelect (by `value`, the code books carry) both take it: its
 * `title` shows the name as the dictionary stores it (never converted), `label` is the same text for
 * searching (`treeNodeFilterProp="label"`).
 */
export interface ClassNode {
  key: number;
  value: string;
  title: ReactNode;
  label: string;
  children: ClassNode[];
}

/** The classification dictionary as tree nodes titled "name（CODE）". */
export const classNodes = (nodes: Classification[]): ClassNode[] =>
  nodes.map((n) => ({
    key: n.dictionaryId,
    value: n.dictionaryValue,
    title: (
      <>
        <BookText>{n.dictionaryName}</BookText>（{n.dictionaryValue}）
      </>
    ),
    label: `${n.dictionaryName}（${n.dictionaryValue}）`,
    children: classNodes(n.children),
  }));
