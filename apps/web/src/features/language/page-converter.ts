/**
 * Simplified/traditional conversion of a whole page (spec §4, DESIGN.md §10). The DOM walk is kept
 * free of browser globals so it can be tested with plain objects.
 */

export type Language = 's' | 't';

/** localStorage key of the reader's choice (spec §3). */
export const LANGUAGE_STORAGE_KEY = 'language';

/** The stored choice, defaulting to simplified. */
export function parseLanguage(raw: string | null | undefined): Language {
  return raw === 't' ? 't' : 's';
}

/** The `lang` of the html element for a choice. */
export function htmlLangFor(language: Language): string {
  return language === 't' ? 'zh-Hant' : 'zh-CN';
}

export type TextConverter = (text: string) => string;

/** Attributes whose text readers see or hear. */
export const CONVERTED_ATTRIBUTES = ['placeholder', 'title', 'alt', 'aria-label'] as const;

/** Marks a subtree that keeps its characters (e.g. the language toggle itself). */
export const NO_CONVERT_ATTRIBUTE = 'data-no-convert';

/** Elements whose text is code, never display text. */
const SKIPPED_ELEMENTS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
/** Elements whose text is an editable value (never converted) but whose placeholder and labels are. */
const VALUE_ELEMENTS = new Set(['TEXTAREA']);

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

const HAN = /\p{Script=Han}/u;

/** The parts of a DOM node the converter uses; DOM nodes have them, tests use plain objects. */
export interface ConvertibleNode {
  readonly nodeType: number;
  readonly nodeName: string;
  nodeValue: string | null;
  readonly childNodes: ArrayLike<ConvertibleNode>;
  readonly parentNode: ConvertibleNode | null;
  getAttribute?(name: string): string | null;
  setAttribute?(name: string, value: string): void;
}

/** The parts of a MutationRecord the converter uses. */
export interface ConvertibleMutation {
  readonly type: string;
  readonly target: ConvertibleNode;
  readonly addedNodes: ArrayLike<ConvertibleNode>;
  readonly attributeName: string | null;
}

/** Whether an element's own tag or marker keeps its subtree unconverted. */
function isSkippedElement(node: ConvertibleNode): boolean {
  if (node.nodeType !== ELEMENT_NODE) return false;
  if (SKIPPED_ELEMENTS.has(node.nodeName.toUpperCase())) return true;
  return node.getAttribute?.(NO_CONVERT_ATTRIBUTE) != null;
}

const isValueElement = (node: ConvertibleNode) =>
  node.nodeType === ELEMENT_NODE && VALUE_ELEMENTS.has(node.nodeName.toUpperCase());

/** Whether a node or any ancestor keeps its text unconverted (a text box's value, not its attributes). */
export function isExcluded(node: ConvertibleNode): boolean {
  for (let current: ConvertibleNode | null = node; current; current = current.parentNode) {
    if (isSkippedElement(current)) return true;
    if (current !== node && isValueElement(current)) return true;
  }
  return false;
}

/**
 * Converts text nodes and reader-facing attributes, always from the text the page itself put there
 * (kept per node in WeakMaps), so switching back and forth never converts twice and restores exactly.
 * A value that differs from what the converter last wrote is new content and becomes the original.
 */
export class PageConverter {
  /** null: the page as written (the interface is written in simplified characters). */
  private convert: TextConverter | null = null;
  /** Whether anything was ever converted: until then a page shown as written needs no work. */
  private touched = false;
  private readonly textOriginal = new WeakMap<object, string>();
  private readonly textWritten = new WeakMap<object, string>();
  private readonly attrOriginal = new WeakMap<object, Map<string, string>>();
  private readonly attrWritten = new WeakMap<object, Map<string, string>>();

  /** Sets the conversion applied from now on (s→t for 't'); null shows every text as the page wrote it. */
  setConverter(convert: TextConverter | null): void {
    this.convert = convert;
    if (convert) this.touched = true;
  }

  /** Converts everything under `root` (inclusive) that is not excluded. */
  convertTree(root: ConvertibleNode): void {
    if (!this.touched) return;
    if (root.parentNode && isExcluded(root.parentNode)) return;
    const stack: ConvertibleNode[] = [root];
    for (let node = stack.pop(); node; node = stack.pop()) {
      if (node.nodeType === TEXT_NODE) {
        this.convertText(node);
      } else if (node.nodeType === ELEMENT_NODE) {
        if (isSkippedElement(node)) continue;
        for (const name of CONVERTED_ATTRIBUTES) this.convertAttribute(node, name);
        if (isValueElement(node)) continue;
        const children = node.childNodes;
        for (let i = children.length - 1; i >= 0; i--) {
          const child = children[i];
          if (child) stack.push(child);
        }
      }
    }
  }

  /** Converts what a batch of DOM mutations added or changed. */
  applyMutations(mutations: ArrayLike<ConvertibleMutation>): void {
    if (!this.touched) return;
    for (let i = 0; i < mutations.length; i++) {
      const mutation = mutations[i];
      if (!mutation) continue;
      if (mutation.type === 'childList') {
        for (let j = 0; j < mutation.addedNodes.length; j++) {
          const added = mutation.addedNodes[j];
          if (added) this.convertTree(added);
        }
      } else if (mutation.type === 'characterData') {
        if (!isExcluded(mutation.target)) this.convertText(mutation.target);
      } else if (mutation.type === 'attributes' && mutation.attributeName) {
        if (!isExcluded(mutation.target)) this.convertAttribute(mutation.target, mutation.attributeName);
      }
    }
  }

  private convertText(node: ConvertibleNode): void {
    const current = node.nodeValue;
    if (current === null) return;
    const original = sourceText(current, this.textWritten.get(node), this.textOriginal.get(node));
    this.textOriginal.set(node, original);
    const next = this.convert && HAN.test(original) ? this.convert(original) : original;
    if (next !== current) node.nodeValue = next;
    this.textWritten.set(node, next);
  }

  private convertAttribute(node: ConvertibleNode, name: string): void {
    if (!(CONVERTED_ATTRIBUTES as readonly string[]).includes(name)) return;
    const current = node.getAttribute?.(name);
    if (current == null || !node.setAttribute) return;
    const originals = mapFor(this.attrOriginal, node);
    const written = mapFor(this.attrWritten, node);
    const original = sourceText(current, written.get(name), originals.get(name));
    originals.set(name, original);
    const next = this.convert && HAN.test(original) ? this.convert(original) : original;
    if (next !== current) node.setAttribute(name, next);
    written.set(name, next);
  }
}

/** The original of a value: the stored one while the value is still what we wrote, else the value. */
function sourceText(current: string, lastWritten: string | undefined, original: string | undefined): string {
  return lastWritten !== undefined && lastWritten === current && original !== undefined ? original : current;
}

function mapFor(store: WeakMap<object, Map<string, string>>, node: object): Map<string, string> {
  let map = store.get(node);
  if (!map) {
    map = new Map();
    store.set(node, map);
  }
  return map;
}
