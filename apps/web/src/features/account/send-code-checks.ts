import {
  MSG,
  isValidEmail,
  isValidIdCard,
  isValidPassword,
  isValidPhone,
  isValidRealName,
} from '@guji/shared';

/** The registration form fields the send-code button looks at. */
export interface RegisterCodeFields {
  realName?: string;
  idCard?: string;
  post?: string;
  email?: string;
  loginName?: string;
  loginPassword?: string;
  phone?: string;
  captchaCode?: string;
}

const blank = (value: string | undefined): boolean => !value || value.trim() === '';

/**
 * The first reason the registration form cannot ask for an SMS code yet, in the order of spec §5:
 * real name and ID card (when asked for), workplace, email, username, password, phone, image captcha.
 * Null when a code may be sent.
 */
export function registerSendCodeError(values: RegisterCodeFields, requireRealName: boolean): string | null {
  if (requireRealName) {
    if (blank(values.realName) || !isValidRealName(values.realName?.trim() ?? ''))
      return MSG.realNameRequired;
    if (blank(values.idCard) || !isValidIdCard(values.idCard?.trim() ?? '')) return MSG.idCardInvalid;
  }
  if (blank(values.post)) return MSG.postRequired;
  if (blank(values.email)) return MSG.emailRequired;
  if (!isValidEmail(values.email?.trim() ?? '')) return MSG.emailInvalid;
  if (blank(values.loginName)) return MSG.loginNameRequired;
  if (!values.loginPassword) return MSG.passwordRequired;
  if (!isValidPassword(values.loginPassword)) return MSG.passwordPattern;
  if (!isValidPhone(values.phone?.trim() ?? '')) return MSG.phoneInvalidForCode;
  if (blank(values.captchaCode)) return MSG.imageCaptchaRequired;
  return null;
}

/**
 * The first reason a phone-only form (recovery, profile) cannot ask for a code yet; `phoneMessage`
 * is that form's wording of a bad number.
 */
export function phoneSendCodeError(
  phone: string | undefined,
  captchaCode: string | undefined,
  phoneMessage: string = MSG.phoneInvalidForCode,
): string | null {
  if (!isValidPhone(phone?.trim() ?? '')) return phoneMessage;
  if (blank(captchaCode)) return MSG.imageCaptchaRequired;
  return null;
}
