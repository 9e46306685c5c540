import { Fragment } from 'react';
import { Link } from 'react-router';
import { noConvert } from './book-text.tsx';

/** One level of a breadcrumb trail; the last level is the current page and never a link. */
export interface Crumb {
  title: string;
  to?: string;
  /** The title is a book's own data (its name), shown as recorded in both scripts. */
  keep?: boolean;
}

export interface BreadcrumbsProps {
  second: Crumb;
  third?: Crumb;
  fourth?: Crumb;
}

/** The trail 首页 / second / optional third / optional fourth (spec §2). */
export function Breadcrumbs({ second, third, fourth }: BreadcrumbsProps) {
  const crumbs: Crumb[] = [{ title: '首页', to: '/' }, second];
  if (third) crumbs.push(third);
  if (third && fourth) crumbs.push(fourth);
  return (
    <nav aria-label="当前位置" className="breadcrumbs">
      <ol>
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <Fragment key={`${index}-${crumb.title}`}>
              <li>
                {last || !crumb.to ? (
                  <span aria-current={last ? 'page' : undefined} {...(crumb.keep ? noConvert : {})}>
                    {crumb.title}
                  </span>
                ) : (
                  <Link to={crumb.to} {...(crumb.keep ? noConvert : {})}>
                    {crumb.title}
                  </Link>
                )}
              </li>
              {!last && (
                <li aria-hidden="true" className="breadcrumbs-separator">
                  /
                </li>
              )}
            </Fragment>
          );
        })}
      </ol>
    </nav>
  );
}
