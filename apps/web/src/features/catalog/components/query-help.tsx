import { Button, Popover } from 'antd';
import { QuestionCircleOutlined } from '@ant-design/icons';

/** The syntax of full-text search (packages/shared search-query.ts), each rule with an example. */
export const QUERY_HELP: ReadonlyArray<{ example: string; meaning: string }> = [
  {
    example: '子曰 學而　或　子曰 AND 學而',
    meaning: '以空格（或 AND）分隔多个词：同一页须包含全部的词（并且）',
  },
  {
    example: '"學而時習" 或 “學而時習”',
    meaning: '引号内为一个词组，按原顺序连续匹配；词组内的空格和标点不计',
  },
  { example: '子曰 OR 孟子　或　子曰 | 孟子', meaning: '包含其中任意一个词即可（或者）' },
  {
    example: '子曰 -曾子　或　子曰 NOT 曾子',
    meaning: '排除含有该词的页；须与至少一个要查找的词同用',
  },
  {
    example: '子曰 NEAR/10 學',
    meaning: '两个词在同一页且相距不超过 10 个字（距离为 1–100，不计标点）',
  },
];

/** 「检索语法」: a button next to the full-text box that opens the syntax with examples. */
export function QueryHelp() {
  const content = (
    <div className="query-help" id="query-help">
      <dl>
        {QUERY_HELP.map((rule) => (
          <div key={rule.example} className="query-help-rule">
            <dt>
              <code>{rule.example}</code>
            </dt>
            <dd>{rule.meaning}</dd>
          </div>
        ))}
      </dl>
      <ul className="query-help-notes">
        <li>AND、OR、NOT、NEAR 须大写，并与检索词以空格隔开；| 和 - 可直接相连。</li>
        <li>默认简体、繁体和异体字互通检索；勾选「精确字形」则只查与输入字形完全相同的字。</li>
        <li>只输入一个词时，按词组检索，与以往相同。</li>
      </ul>
    </div>
  );
  return (
    <Popover content={content} title="检索语法" trigger="click" placement="bottomLeft">
      <Button type="link" icon={<QuestionCircleOutlined aria-hidden />} aria-haspopup="dialog">
        检索语法
      </Button>
    </Popover>
  );
}
