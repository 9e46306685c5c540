import { Button } from 'antd';
import { countdownLabel } from '../use-countdown.ts';

interface SendCodeButtonProps {
  /** Seconds left of the countdown; 0 when a code may be sent. */
  remaining: number;
  loading: boolean;
  onSend: () => void;
  label?: string;
}

/**
 * The send-code button. While counting down it shows "{n}秒后重新发送" and ignores clicks (spec §4);
 * it stays focusable so the countdown can be read out.
 */
export function SendCodeButton({ remaining, loading, onSend, label = '获取验证码' }: SendCodeButtonProps) {
  const counting = remaining > 0;
  return (
    <Button
      className="send-code-button"
      loading={loading}
      aria-disabled={counting || undefined}
      onClick={() => {
        if (!counting && !loading) onSend();
      }}
    >
      {counting ? countdownLabel(remaining) : label}
    </Button>
  );
}
