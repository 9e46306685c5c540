import { describe, expect, it } from 'vitest';
import type { DirectoryNode, PageImage } from '@guji/shared';
import {
  clampZoom,
  keyCommand,
  movePage,
  startPage,
  stepZoom,
  TurnOrigin,
  viewFromParams,
  writeView,
} from './reader-navigation.ts';

describe('keys in a right-to-left book', () => {
  it('turns forward with ← and back with →', () => {
    expect(keyCommand('ArrowLeft')).toBe('next');
    expect(keyCommand('ArrowRight')).toBe('previous');
  });

  it('turns with PageDown and PageUp too (issue 32)', () => {
    expect(keyCommand('PageDown')).toBe('next');
    expect(keyCommand('PageUp')).toBe('previous');
  });

  it('goes to the first page with Home and the last with End', () => {
    expect(keyCommand('Home')).toBe('first');
    expect(keyCommand('End')).toBe('last');
  });

  it('zooms with + and -, also without Shift and on the keypad', () => {
    expect(keyCommand('+')).toBe('zoomIn');
    expect(keyCommand('=')).toBe('zoomIn');
    expect(keyCommand('-')).toBe('zoomOut');
    expect(keyCommand('Enter')).toBeNull();
    expect(keyCommand('ArrowUp')).toBeNull();
  });
});

describe('page moves', () => {
  it('turns two pages at a time in a spread, stopping at the ends', () => {
    expect(movePage('next', 3, 10, 2)).toBe(5);
    expect(movePage('next', 9, 10, 2)).toBe(10);
    expect(movePage('previous', 2, 10, 2)).toBe(1);
  });

  it('stays within the volume', () => {
    expect(movePage('next', 3, 10)).toBe(4);
    expect(movePage('next', 10, 10)).toBe(10);
    expect(movePage('previous', 1, 10)).toBe(1);
    expect(movePage('previous', 5, 10)).toBe(4);
    expect(movePage('first', 7, 10)).toBe(1);
    expect(movePage('last', 2, 10)).toBe(10);
    expect(movePage('last', 1, 0)).toBe(1);
  });
});

function page(imageId: number, pageNumber: number): PageImage {
  return {
    imageId,
    pageNumber,
    name: `${pageNumber}`,
    width: 3000,
    height: 4000,
    iiifBase: `/iiif/3/${imageId}`,
    thumbnailUrl: `/iiif/3/${imageId}/full/200,/0/default.jpg`,
  };
}

describe('the page the reader opens on', () => {
  const pages = [page(11, 1), page(12, 2), page(13, 3), page(14, 4)];
  const directory: DirectoryNode[] = [
    { directoryId: 1, name: '序', imageId: 11, pageNumber: 1, children: [] },
    {
      directoryId: 2,
      name: '卷上',
      imageId: null,
      pageNumber: null,
      children: [{ directoryId: 3, name: '正文', imageId: 13, pageNumber: 3, children: [] }],
    },
    { directoryId: 4, name: '越界', imageId: 99, pageNumber: 40, children: [] },
  ];

  it('is the page of imageId when this volume has it', () => {
    expect(startPage(pages, directory, 14, 1)).toBe(4);
  });

  it('falls back to the directory entry, then to the first page', () => {
    expect(startPage(pages, directory, 999, 3)).toBe(3);
    expect(startPage(pages, directory, null, 2)).toBe(3);
    expect(startPage(pages, directory, null, 4)).toBe(1);
    expect(startPage(pages, directory, null, 77)).toBe(1);
    expect(startPage(pages, directory, null, null)).toBe(1);
  });
});

describe('zoom steps', () => {
  it('moves to the neighbouring level of ZOOM_LEVELS', () => {
    expect(stepZoom(50, 'in')).toBe(60);
    expect(stepZoom(100, 'in')).toBe(120);
    expect(stepZoom(120, 'out')).toBe(100);
    expect(stepZoom(73, 'in')).toBe(80);
    expect(stepZoom(73, 'out')).toBe(70);
  });

  it('stops at 10 % and 200 %', () => {
    expect(stepZoom(200, 'in')).toBe(200);
    expect(stepZoom(10, 'out')).toBe(10);
    expect(stepZoom(5, 'out')).toBe(10);
  });

  it('keeps a reported zoom within 10–200 in whole percent', () => {
    expect(clampZoom(72.6)).toBe(73);
    expect(clampZoom(3)).toBe(10);
    expect(clampZoom(450)).toBe(200);
  });
});

describe('the view kept in the address (issue 32)', () => {
  it('reads mode and zoom, defaulting to the fitted image, and refuses what is not a view', () => {
    expect(viewFromParams(new URLSearchParams('catalogId=1'))).toEqual({ mode: 'image', zoom: 'fit' });
    expect(viewFromParams(new URLSearchParams('mode=both&zoom=150'))).toEqual({ mode: 'both', zoom: 150 });
    expect(viewFromParams(new URLSearchParams('mode=text&zoom=9999'))).toEqual({ mode: 'text', zoom: 200 });
    expect(viewFromParams(new URLSearchParams('mode=<x>&zoom=-5'))).toEqual({ mode: 'image', zoom: 'fit' });
  });

  it('writes only what differs from the default and keeps the other parameters', () => {
    const base = new URLSearchParams('catalogId=1&fascicleId=2&imageId=3&hl=學');
    expect(writeView(base, 'image', 'fit').toString()).toBe(base.toString());
    const both = writeView(base, 'both', 120);
    expect(both.get('mode')).toBe('both');
    expect(both.get('zoom')).toBe('120');
    expect(both.get('imageId')).toBe('3');
    expect(both.get('hl')).toBe('學');
    expect(viewFromParams(both)).toEqual({ mode: 'both', zoom: 120 });
    expect(writeView(both, 'image', 'fit').toString()).toBe(base.toString());
  });
});

describe('where the next turn starts when keys come faster than renders', () => {
  /** Keys pressed on a 10-page volume: each asks for the page after (or before) the origin. */
  const press = (origin: TurnOrigin, move: 'next' | 'previous') => {
    const target = movePage(move, origin.page, 10);
    return { target, id: origin.ask(target) };
  };

  it('PageDown, PageDown, PageUp from page 1 ends on page 2, whenever the renders come', () => {
    const origin = new TurnOrigin(1);
    const first = press(origin, 'next');
    const second = press(origin, 'next');
    // The first turn's page is shown only now: the second turn is still on its way.
    origin.shown(first.target, first.id);
    expect(origin.page).toBe(3);
    const third = press(origin, 'previous');
    expect(third.target).toBe(2);
    origin.shown(second.target, second.id);
    origin.shown(third.target, third.id);
    expect(origin.page).toBe(2);
  });

  it('a render skipped on the way still clears the turns before it', () => {
    const origin = new TurnOrigin(4);
    press(origin, 'next');
    const last = press(origin, 'next');
    origin.shown(last.target, last.id);
    expect(origin.page).toBe(6);
    // Back (an earlier entry, a turn already arrived): the origin is the page shown.
    origin.shown(5, 1);
    expect(origin.page).toBe(5);
  });

  it('any other way to a page (a link, Back) makes that page the origin', () => {
    const origin = new TurnOrigin(1);
    press(origin, 'next');
    origin.shown(7, undefined);
    expect(origin.page).toBe(7);
    expect(press(origin, 'next').target).toBe(8);
  });
});
