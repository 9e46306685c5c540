import type { ReactNode } from 'react';
import {
  LIMITS,
  MSG,
  readerCategoryText,
  isValidEmail,
  isValidIdCard,
  isValidNickname,
  isValidRealName,
} from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { withReason } from '../failure-message.ts';
import { useSession, useUpdateProfile } from '../queries.ts';
import { AvatarUpload } from './avatar-upload.tsx';
import { EditableField } from './editable-field.tsx';
import { PhoneField } from './phone-field.tsx';
import { ApiTokensSection } from './api-tokens-section.tsx';

type TextField = 'nickName' | 'realName' | 'email' | 'idCard';

/** 我的信息 (Infor): the avatar and the profile fields, each edited in place. */
export function ProfileChannel() {
  const user = useSession().data?.user;
  const update = useUpdateProfile();
  if (!user) return null;

  const saver = (field: TextField, failure: string) => (value: string) =>
    update.mutateAsync({ field, value }).then(
      () => toast.success(MSG.modifySuccess),
      (error: unknown) => {
        toast.error(withReason(failure, serverMessage(error)));
        throw error;
      },
    );
  const check = (isValid: (value: string) => boolean, message: string) => (value: string) =>
    isValid(value) ? null : message;

  return (
    <div className="profile">
      <AvatarUpload avatarUrl={user.avatarUrl} />
      <dl className="profile-list">
        <Row label="用户名">
          <span className="field-value">{user.loginName}</span>
        </Row>
        <Row label="读者类别">
          <span className="field-value">{readerCategoryText(user.flag, user.flagExpiresAt)}</span>
        </Row>
        <Row label="昵称">
          <EditableField
            label="昵称"
            display={user.nickName}
            initial={user.nickName ?? ''}
            maxLength={LIMITS.nicknameMax}
            validate={check(isValidNickname, MSG.nicknameInvalid)}
            save={saver('nickName', MSG.nicknameFailed)}
          />
        </Row>
        <Row label="真实姓名">
          <EditableField
            label="真实姓名"
            display={user.realName}
            initial={user.realName ?? ''}
            maxLength={LIMITS.realNameMax}
            validate={check(isValidRealName, MSG.realNameInvalid)}
            save={saver('realName', MSG.realNameFailed)}
          />
        </Row>
        <Row label="邮箱">
          <EditableField
            label="邮箱"
            display={user.email}
            initial={user.email ?? ''}
            maxLength={LIMITS.emailMax}
            validate={check(isValidEmail, MSG.profileEmailInvalid)}
            save={saver('email', MSG.modifyFailed)}
          />
        </Row>
        <Row label="手机号">
          <PhoneField phone={user.phone} />
        </Row>
        <Row label="身份证号">
          <EditableField
            label="身份证号"
            display={user.idCard}
            initial=""
            maxLength={LIMITS.idCardLength}
            validate={check((v) => isValidIdCard(v), MSG.profileIdCardInvalid)}
            save={(value) => saver('idCard', MSG.modifyFailed)(value.toUpperCase())}
          />
        </Row>
        <Row label="工作单位">
          <span className={user.post ? 'field-value' : 'field-value field-empty'}>
            {user.post || '未填写'}
          </span>
        </Row>
      </dl>
      <ApiTokensSection />
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="profile-row">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}
