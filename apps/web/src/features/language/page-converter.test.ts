import { describe, expect, it, vi } from 'vitest';
import { loadConverter } from './opencc-loader.ts';
import {
  PageConverter,
  htmlLangFor,
  isExcluded,
  parseLanguage,
  type ConvertibleMutation,
  type ConvertibleNode,
} from './page-converter.ts';

/** A minimal stand-in for DOM nodes: enough structure for the converter, no browser needed. */
class FakeNode implements ConvertibleNode {
  childNodes: FakeNode[] = [];
  parentNode: FakeNode | null = null;
  private readonly attributes = new Map<string, string>();

  constructor(
    readonly nodeType: number,
    readonly nodeName: string,
    public nodeValue: string | null = null,
  ) {}

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }

  append(...children: FakeNode[]): this {
    for (const child of children) {
      child.parentNode = this;
      this.childNodes.push(child);
    }
    return this;
  }
}

const text = (value: string) => new FakeNode(3, '#text', value);
function element(name: string, attributes: Record<string, string> = {}, ...children: FakeNode[]): FakeNode {
  const node = new FakeNode(1, name.toUpperCase());
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node.append(...children);
}

/** Wraps text in brackets: converting an already converted value would show double brackets. */
const bracket = (value: string) => `[${value}]`;
const identity = (value: string) => value;

describe('PageConverter', () => {
  it('converts text nodes and reader-facing attributes under the root', () => {
    const label = text('个人中心');
    const input = element('input', { placeholder: '请输入', name: '用户名' });
    const image = element('img', { alt: '头像', title: '用户' });
    const root = element('body', {}, element('div', {}, label), input, image);

    const converter = new PageConverter();
    converter.setConverter(bracket);
    converter.convertTree(root);

    expect(label.nodeValue).toBe('[个人中心]');
    expect(input.getAttribute('placeholder')).toBe('[请输入]');
    expect(input.getAttribute('name')).toBe('用户名');
    expect(image.getAttribute('alt')).toBe('[头像]');
    expect(image.getAttribute('title')).toBe('[用户]');
  });

  it('always converts from the original, so switching back restores it exactly', () => {
    const node = text('汉字');
    const root = element('body', {}, node);
    const converter = new PageConverter();

    converter.setConverter(bracket);
    converter.convertTree(root);
    converter.convertTree(root);
    expect(node.nodeValue).toBe('[汉字]');

    converter.setConverter(identity);
    converter.convertTree(root);
    expect(node.nodeValue).toBe('汉字');
  });

  it('skips data-no-convert subtrees, scripts, styles and textareas', () => {
    const kept = text('简');
    const script = text('var 简 = 1');
    const style = text('.简 {}');
    const textarea = text('输入的值');
    const converted = text('繁');
    const root = element(
      'body',
      {},
      element('span', { 'data-no-convert': '' }, element('b', {}, kept)),
      element('script', {}, script),
      element('style', {}, style),
      element('textarea', {}, textarea),
      element('p', {}, converted),
    );
    const converter = new PageConverter();
    converter.setConverter(bracket);
    converter.convertTree(root);

    expect([kept, script, style, textarea].map((node) => node.nodeValue)).toEqual([
      '简',
      'var 简 = 1',
      '.简 {}',
      '输入的值',
    ]);
    expect(converted.nodeValue).toBe('[繁]');
    expect(isExcluded(kept)).toBe(true);
    expect(isExcluded(converted)).toBe(false);
  });

  it('converts a text box’s placeholder and label but never the value typed in it (issue 32)', () => {
    const value = text('这里面的后字');
    const box = element('textarea', { placeholder: '写下评论', 'aria-label': '评论内容' }, value);
    const converter = new PageConverter();
    converter.setConverter(bracket);
    converter.convertTree(element('form', {}, box));
    expect(value.nodeValue).toBe('这里面的后字');
    expect(box.getAttribute('placeholder')).toBe('[写下评论]');
    expect(box.getAttribute('aria-label')).toBe('[评论内容]');
    expect(isExcluded(value)).toBe(true);
    expect(isExcluded(box)).toBe(false);
    // A placeholder set later is converted as it arrives.
    box.setAttribute('placeholder', '请输入');
    converter.applyMutations([
      { type: 'attributes', target: box, addedNodes: [], attributeName: 'placeholder' },
    ]);
    expect(box.getAttribute('placeholder')).toBe('[请输入]');
  });

  it('leaves text without Chinese characters alone', () => {
    const convert = vi.fn(bracket);
    const node = text('Hello 123');
    const converter = new PageConverter();
    converter.setConverter(convert);
    converter.convertTree(element('body', {}, node));
    expect(node.nodeValue).toBe('Hello 123');
    expect(convert).not.toHaveBeenCalled();
  });

  it('treats text the page writes after a conversion as the new original', () => {
    const node = text('旧');
    const root = element('body', {}, node);
    const converter = new PageConverter();
    converter.setConverter(bracket);
    converter.convertTree(root);

    node.nodeValue = '新';
    const change: ConvertibleMutation = {
      type: 'characterData',
      target: node,
      addedNodes: [],
      attributeName: null,
    };
    converter.applyMutations([change]);
    expect(node.nodeValue).toBe('[新]');

    // The observer also reports the converter's own write: it must not convert again.
    converter.applyMutations([change]);
    expect(node.nodeValue).toBe('[新]');

    converter.setConverter(identity);
    converter.convertTree(root);
    expect(node.nodeValue).toBe('新');
  });

  it('converts added subtrees and changed attributes from mutation records', () => {
    const root = element('body');
    const converter = new PageConverter();
    converter.setConverter(bracket);

    const added = element('div', { 'aria-label': '菜单' }, text('退出登录'));
    root.append(added);
    converter.applyMutations([{ type: 'childList', target: root, addedNodes: [added], attributeName: null }]);
    expect(added.getAttribute('aria-label')).toBe('[菜单]');
    expect(added.childNodes[0]?.nodeValue).toBe('[退出登录]');

    added.setAttribute('aria-label', '新菜单');
    added.setAttribute('class', '类');
    converter.applyMutations([
      { type: 'attributes', target: added, addedNodes: [], attributeName: 'aria-label' },
      { type: 'attributes', target: added, addedNodes: [], attributeName: 'class' },
    ]);
    expect(added.getAttribute('aria-label')).toBe('[新菜单]');
    expect(added.getAttribute('class')).toBe('类');
  });

  it('ignores mutations inside excluded subtrees', () => {
    const node = text('简');
    const root = element('body', {}, element('div', { 'data-no-convert': '' }, node));
    const converter = new PageConverter();
    converter.setConverter(bracket);
    converter.applyMutations([{ type: 'characterData', target: node, addedNodes: [], attributeName: null }]);
    converter.applyMutations([{ type: 'childList', target: root, addedNodes: [node], attributeName: null }]);
    expect(node.nodeValue).toBe('简');
  });
});

describe('language choice', () => {
  it('defaults to simplified for anything but "t"', () => {
    expect(parseLanguage('t')).toBe('t');
    expect(parseLanguage('s')).toBe('s');
    expect(parseLanguage(null)).toBe('s');
    expect(parseLanguage('zh-TW')).toBe('s');
  });

  it('names the script in the html lang attribute', () => {
    expect(htmlLangFor('s')).toBe('zh-CN');
    expect(htmlLangFor('t')).toBe('zh-Hant');
  });
});

describe('OpenCC converters', () => {
  it('converts simplified to traditional for "t" and traditional to simplified for "s"', async () => {
    const toTraditional = await loadConverter('t');
    const toSimplified = await loadConverter('s');
    expect(toTraditional('个人中心 汉语')).toBe('個人中心 漢語');
    expect(toSimplified('個人中心 漢語 後來')).toBe('个人中心 汉语 后来');
  });

  it('round-trips a page through both modes from the originals', async () => {
    const node = text('古籍数字图书馆 後來');
    const root = element('body', {}, node);
    const converter = new PageConverter();

    converter.setConverter(await loadConverter('t'));
    converter.convertTree(root);
    expect(node.nodeValue).toBe('古籍數字圖書館 後來');

    converter.setConverter(await loadConverter('s'));
    converter.convertTree(root);
    expect(node.nodeValue).toBe('古籍数字图书馆 后来');
  });
});
