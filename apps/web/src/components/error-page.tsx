/**
 * The fallback page of spec §2 for render crashes. A plain link home reloads the app, which is
 * what a crashed page needs; it also works outside the router.
 */
export function ErrorPage({ landmark = false }: { landmark?: boolean }) {
  const Root = landmark ? 'main' : 'div';
  return (
    <Root className="error-page" role="alert">
      <h1>抱歉，页面无法打开</h1>
      <p>可能的原因：</p>
      <ul>
        <li>网络连接异常</li>
        <li>页面地址有误</li>
        <li>页面已被删除或暂时不可用</li>
        <li>浏览器版本过低</li>
      </ul>
      <a className="error-page-home" href="/">
        返回首页
      </a>
    </Root>
  );
}
