import { Fragment, type ComponentPropsWithoutRef } from 'react';
import { NO_CONVERT_ATTRIBUTE } from '../features/language/index.ts';

/**
 * Everything stored is shown exactly as stored (issues 16 and 32): the books' own data (titles, authors,
 * call numbers, editions, dynasties, volume and directory names, recognised text, snippets and quotes of
 * it) and what people typed (comments, notes, reasons, invoice titles, nicknames, own books' fields,
 * audit details). The 简/繁 toggle converts the interface only. Spread `noConvert` on an element that holds
 * such data, or wrap it in `BookText`.
 */
export const noConvert = { [NO_CONVERT_ATTRIBUTE]: '' } as const;

/** A span whose text keeps its characters when the interface switches between 简 and 繁. */
export function BookText(props: ComponentPropsWithoutRef<'span'>) {
  return <span {...props} {...noConvert} />;
}

/** Where a page is: its volume and directory names as recorded, then 「第 N 页」 in the interface's script. */
export function PagePlace({
  names,
  pageNumber,
}: {
  names: (string | null | undefined)[];
  pageNumber: number;
}) {
  return (
    <>
      {names.filter(Boolean).map((name, index) => (
        <Fragment key={index}>
          <BookText>{name}</BookText>
          {' · '}
        </Fragment>
      ))}
      第 {pageNumber} 页
    </>
  );
}
