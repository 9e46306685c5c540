import fs from 'node:fs';
import path from 'node:path';
import { ConverterBuilder, type ConverterFunction } from 'opencc-js/core';
import * as cn2tPreset from 'opencc-js/preset/cn2t';
import { z } from 'zod';
import { chineseNumeral } from '../lib/chinese-numeral.ts';
import type { LayoutChapter } from './layout.ts';

/** The edition every demo book carries: typeset by this project, never a historical edition. */
export const DEMO_EDITION = '古籍數字圖書館演示排印本';

/** A node of the demo classification (spec §3 dictionary: name and value). */
export interface DemoClass {
  /** The value books carry in `classCode`, e.g. `JING.SISHU`. */
  code: string;
  name: string;
  children: DemoClass[];
}

/** The classification tree of the demo library, after the four divisions (四部) of 四庫全書. */
export const DEMO_CLASSIFICATION: DemoClass[] = [
  {
    code: 'JING',
    name: '經部',
    children: [
      { code: 'JING.SISHU', name: '四書類', children: [] },
      { code: 'JING.SHI', name: '詩類', children: [] },
    ],
  },
  { code: 'SHI', name: '史部', children: [{ code: 'SHI.ZHENGSHI', name: '正史類', children: [] }] },
  { code: 'ZI', name: '子部', children: [{ code: 'ZI.MENGXUE', name: '蒙學類', children: [] }] },
  { code: 'JI', name: '集部', children: [] },
];

/** A volume (卷/fascicle) of a demo book. */
export interface DemoVolume {
  /** e.g. 卷一; printed in the centre strip. */
  name: string;
  /** What the volume holds, e.g. 學而第一至鄉黨第十. */
  introduction: string;
  /** Chapters in order, traditional characters, punctuation as in the source. */
  chapters: LayoutChapter[];
}

/** A book of the demo library, with the catalogue fields of spec §3. */
export interface DemoBook {
  /** Stable key, e.g. `lunyu`. */
  key: string;
  title: string;
  author: string;
  /** Period of the work. */
  publishDynasty: string;
  /** Edition (版本); always {@link DEMO_EDITION}. */
  coverageDynasty: string;
  callNumber: string;
  classCode: string;
  /** Open for online reading; otherwise reading-room only. */
  isOpen: boolean;
  volumes: DemoVolume[];
}

const ChapterFile = z.object({ chapter: z.string(), paragraphs: z.array(z.string()) });
const PoemFile = z.object({
  title: z.string(),
  chapter: z.string(),
  section: z.string(),
  content: z.array(z.string()),
});
const QianziwenFile = z.object({ title: z.string(), author: z.string(), paragraphs: z.array(z.string()) });

function readJson<S extends z.ZodType>(dir: string, file: string, schema: S): z.output<S> {
  return schema.parse(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')));
}

let cnToTw: ConverterFunction | undefined;

/** OpenCC simplified → traditional (Taiwan standard), built once (~0.1 s). */
function toTraditional(text: string): string {
  // Imported from core and the preset rather than the package root, whose typings import './core'
  // without an extension, which NodeNext cannot resolve (every export would be `any`).
  cnToTw ??= ConverterBuilder(cn2tPreset)({ from: 'cn', to: 'tw' });
  return cnToTw(text);
}

function volumeName(n: number): string {
  return `卷${chineseNumeral(n)}`;
}

/**
 * Reads the demo library from the classics folder (`apps/server/demo-data/classics`): 論語, 孟子
 * (first four chapters), 大學, 中庸, 詩經 (周南 and 召南) and 千字文, in traditional characters.
 * 論語 and 詩經 are simplified in the source and are converted with OpenCC (cn → tw).
 */
export function loadDemoBooks(classicsDir: string): DemoBook[] {
  return [...fourBooks(classicsDir), ...poetryAndPrimer(classicsDir)];
}

const common = { coverageDynasty: DEMO_EDITION };

const single = (introduction: string, chapters: LayoutChapter[]): DemoVolume[] => [
  { name: volumeName(1), introduction, chapters },
];

/** 論語 and 孟子 in two volumes each, 大學 and 中庸 in one. */
function fourBooks(classicsDir: string): DemoBook[] {
  const lunyuChapters = readJson(classicsDir, 'lunyu.json', z.array(ChapterFile)).map((c, i) => ({
    // 学而篇 → 學而第一
    title: `${toTraditional(c.chapter).replace(/篇$/, '')}第${chineseNumeral(i + 1)}`,
    paragraphs: c.paragraphs.map((p) => toTraditional(p)),
  }));
  const span = (chapters: LayoutChapter[]) => `${chapters[0]?.title ?? ''}至${chapters.at(-1)?.title ?? ''}`;
  const lunyu1 = lunyuChapters.slice(0, 10);
  const lunyu2 = lunyuChapters.slice(10);

  // 梁惠王上 → 梁惠王章句上, the chapter names of Zhao Qi's commentary that editions print.
  const mengziChapters = readJson(classicsDir, 'mengzi.json', z.array(ChapterFile))
    .slice(0, 4)
    .map((c) => ({ title: c.chapter.replace(/([上下])$/, '章句$1'), paragraphs: c.paragraphs }));
  const mengzi1 = mengziChapters.slice(0, 2);
  const mengzi2 = mengziChapters.slice(2, 4);

  const daxue = readJson(classicsDir, 'daxue.json', ChapterFile);
  const zhongyong = readJson(classicsDir, 'zhongyong.json', ChapterFile);

  return [
    {
      key: 'lunyu',
      title: '論語',
      author: '孔子弟子及再傳弟子',
      publishDynasty: '春秋',
      ...common,
      callNumber: 'DEMO-經-001',
      classCode: 'JING.SISHU',
      isOpen: true,
      volumes: [
        { name: volumeName(1), introduction: span(lunyu1), chapters: lunyu1 },
        { name: volumeName(2), introduction: span(lunyu2), chapters: lunyu2 },
      ],
    },
    {
      key: 'mengzi',
      title: '孟子',
      author: '孟子',
      publishDynasty: '戰國',
      ...common,
      callNumber: 'DEMO-經-002',
      classCode: 'JING.SISHU',
      isOpen: false,
      volumes: [
        { name: volumeName(1), introduction: span(mengzi1), chapters: mengzi1 },
        { name: volumeName(2), introduction: span(mengzi2), chapters: mengzi2 },
      ],
    },
    {
      key: 'daxue',
      title: '大學',
      author: '曾子（舊題）',
      publishDynasty: '戰國',
      ...common,
      callNumber: 'DEMO-經-003',
      classCode: 'JING.SISHU',
      isOpen: true,
      volumes: single('大學全篇', [{ title: '大學', paragraphs: daxue.paragraphs }]),
    },
    {
      key: 'zhongyong',
      title: '中庸',
      author: '子思',
      publishDynasty: '戰國',
      ...common,
      callNumber: 'DEMO-經-004',
      classCode: 'JING.SISHU',
      isOpen: false,
      volumes: single('中庸全篇', [{ title: '中庸', paragraphs: zhongyong.paragraphs }]),
    },
  ];
}

/** 詩經 (周南 and 召南) and 千字文, one volume each. */
function poetryAndPrimer(classicsDir: string): DemoBook[] {
  const sections = ['周南', '召南'];
  const poems = readJson(classicsDir, 'shijing.json', z.array(PoemFile))
    .map((p) => ({ ...p, section: toTraditional(p.section) }))
    .filter((p) => sections.includes(p.section))
    .sort((a, b) => sections.indexOf(a.section) - sections.indexOf(b.section));

  const qianziwen = readJson(classicsDir, 'qianziwen.json', QianziwenFile);

  return [
    {
      key: 'shijing',
      title: '詩經',
      author: '佚名',
      publishDynasty: '周',
      ...common,
      callNumber: 'DEMO-經-005',
      classCode: 'JING.SHI',
      isOpen: true,
      volumes: single(
        '國風：周南、召南',
        poems.map((p) => ({
          title: toTraditional(p.title),
          paragraphs: p.content.map((line) => toTraditional(line)),
        })),
      ),
    },
    {
      key: 'qianziwen',
      title: '千字文',
      author: qianziwen.author,
      publishDynasty: '南朝梁',
      ...common,
      callNumber: 'DEMO-子-001',
      classCode: 'ZI.MENGXUE',
      isOpen: true,
      // The source has one four-character phrase per paragraph; editions print it as running text.
      volumes: single('千字文全篇', [
        { title: qianziwen.title, paragraphs: [qianziwen.paragraphs.join('')] },
      ]),
    },
  ];
}
