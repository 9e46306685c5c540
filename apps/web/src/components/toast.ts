import { message as staticMessage, type App } from 'antd';

type MessageInstance = ReturnType<typeof App.useApp>['message'];

/**
 * One place to show toasts from anywhere, including code outside React (the API client).
 * `ToastBridge` registers the instance of antd's `App`, which carries the locale and the
 * one-message-at-a-time setting; before it mounts the static API is used.
 */
let instance: MessageInstance | null = null;

export function registerToast(api: MessageInstance | null): void {
  instance = api;
}

function current(): MessageInstance {
  return instance ?? staticMessage;
}

export const toast = {
  success: (text: string): void => void current().success(text),
  error: (text: string): void => void current().error(text),
  warning: (text: string): void => void current().warning(text),
  info: (text: string): void => void current().info(text),
};
