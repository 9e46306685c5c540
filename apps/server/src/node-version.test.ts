import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { MIN_NODE_MAJOR, nodeVersionProblem } from './node-version.ts';

describe('nodeVersionProblem', () => {
  it('accepts the supported majors and refuses older ones with a message naming both versions', () => {
    expect(nodeVersionProblem('22.0.0')).toBeUndefined();
    expect(nodeVersionProblem('24.22.3')).toBeUndefined();
    expect(nodeVersionProblem('20.20.2')).toBe(
      '需要 Node.js 22 或更新版本，当前是 20.20.2（Node.js 22+ is required; this is 20.20.2）',
    );
  });

  it('names the same minimum as package.json engines', () => {
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      engines: { node: string };
    };
    expect(root.engines.node).toBe(`>=${MIN_NODE_MAJOR}`);
  });
});
