import { useEffect } from 'react';
import { App } from 'antd';
import { registerToast } from './toast.ts';

/** Hands antd's App message instance to `toast`. Render once inside `<App>`. */
export function ToastBridge() {
  const { message } = App.useApp();
  useEffect(() => {
    registerToast(message);
    return () => registerToast(null);
  }, [message]);
  return null;
}
