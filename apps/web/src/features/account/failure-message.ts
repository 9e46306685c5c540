/** A failure text with the server's reason appended, e.g. "修改昵称失败：昵称已被使用". */
export function withReason(base: string, reason: string | null | undefined): string {
  return reason && reason !== base ? `${base}：${reason}` : base;
}
