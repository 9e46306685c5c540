import type { FormInstance } from 'antd';
import { MSG, type SendCodeRequest } from '@guji/shared';
import { toast } from '../../components/toast.ts';
import { useCaptcha, useSendSmsCode } from './queries.ts';
import { useCountdown } from './use-countdown.ts';

/**
 * Sending an SMS code behind the form's image captcha, as registration, recovery and a new phone number
 * in 我的信息 do it: the captcha on screen is spent by every attempt (the server consumes it), so the
 * field is emptied and a new captcha shown whatever the answer; a code sent starts the button's countdown.
 */
export function useSmsCodeSender(
  form: FormInstance,
  purpose: SendCodeRequest['purpose'],
  countdownSeconds: number,
  captchaEnabled = true,
) {
  const captcha = useCaptcha(captchaEnabled);
  const sendCode = useSendSmsCode();
  const countdown = useCountdown(countdownSeconds);

  const send = (phone: string, captchaCode: string | undefined, onSent?: () => void) => {
    const current = captcha.captcha;
    if (!current) {
      captcha.refresh();
      return;
    }
    sendCode.mutate(
      { phone: phone.trim(), purpose, captchaId: current.captchaId, captchaCode: captchaCode?.trim() ?? '' },
      {
        onSuccess: () => {
          countdown.start();
          toast.success(MSG.codeSent);
          onSent?.();
        },
        onSettled: () => {
          form.setFieldValue('captchaCode', '');
          captcha.refresh();
        },
      },
    );
  };

  return { captcha, remaining: countdown.remaining, sending: sendCode.isPending, send };
}
