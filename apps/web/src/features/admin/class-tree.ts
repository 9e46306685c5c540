import type { Classification } from '@guji/shared';

/** A class as antd's Tree (by `key`) and TreeSelect (by `value`, the code books carry) both take it. */
export interface ClassNode {
  key: number;
  value: string;
  title: string;
  children: ClassNode[];
}

/** The classification dictionary as tree nodes titled "name（CODE）". */
export const classNodes = (nodes: Classification[]): ClassNode[] =>
  nodes.map((n) => ({
    key: n.dictionaryId,
    value: n.dictionaryValue,
    title: `${n.dictionaryName}（${n.dictionaryValue}）`,
    children: classNodes(n.children),
  }));
