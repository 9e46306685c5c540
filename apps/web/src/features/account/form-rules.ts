import type { FormRule } from 'antd';

/** How every password text describes the rule (DESIGN.md §8: say 8–16 everywhere). */
export const PASSWORD_HINT = '8-16位字母、数字、特殊符号两种及以上组合';

/** A required-field rule with the exact text of spec §5; blank text counts as missing. */
export function requiredRule(message: string): FormRule {
  return { required: true, whitespace: true, message };
}

/**
 * A rule that checks a non-empty value with one of the shared validators (`@guji/shared`), so the
 * form and the server apply the same rule. Empty values are left to `requiredRule`.
 */
export function validRule(isValid: (value: string) => boolean, message: string, trim = true): FormRule {
  return {
    validator: (_rule, value: unknown) => {
      if (typeof value !== 'string' || value === '') return Promise.resolve();
      const text = trim ? value.trim() : value;
      return isValid(text) ? Promise.resolve() : Promise.reject(new Error(message));
    },
  };
}

/** A confirmation field that must equal another field. */
export function sameAsRule(field: string, message: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: (_rule, value: unknown) =>
      !value || value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(message)),
  });
}
