import { NavLink } from 'react-router';

/** The two sides of the own-book OCR service (spec §2 /OCRAside). */
export function AsideNav() {
  return (
    <nav className="aside-nav" aria-label="古籍 OCR 服务">
      <NavLink to="/OCRAside/HholeBook">整本古籍</NavLink>
      <NavLink to="/OCRAside/Single">单张图像</NavLink>
    </nav>
  );
}
