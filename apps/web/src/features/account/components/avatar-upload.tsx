import { useRef } from 'react';
import { Avatar, Button } from 'antd';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { MSG } from '@guji/shared';
import { serverMessage } from '../../../api/client.ts';
import { toast } from '../../../components/toast.ts';
import { AVATAR_ACCEPT, isAcceptableAvatar } from '../avatar.ts';
import { withReason } from '../failure-message.ts';
import { useUploadAvatar } from '../queries.ts';

/** The user's avatar and the button that replaces it (checked here first: type and 2 MB). */
export function AvatarUpload({ avatarUrl }: { avatarUrl: string | null }) {
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();

  const onFile = (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!isAcceptableAvatar(file)) {
      toast.error(MSG.avatarInvalid);
      return;
    }
    upload.mutate(file, {
      onSuccess: () => toast.success(MSG.avatarSuccess),
      onError: (error) => toast.error(withReason(MSG.avatarFailed, serverMessage(error))),
    });
  };

  return (
    <div className="avatar-upload">
      <Avatar size={96} src={avatarUrl ?? undefined} icon={<UserOutlined />} alt="我的头像" />
      <div className="avatar-upload-actions">
        <input
          ref={input}
          type="file"
          accept={AVATAR_ACCEPT}
          aria-label="选择头像图片"
          hidden
          onChange={(event) => onFile(event.target.files?.[0])}
        />
        <Button icon={<UploadOutlined />} loading={upload.isPending} onClick={() => input.current?.click()}>
          更换头像
        </Button>
        <p className="field-hint">支持 jpg、jpeg、bmp、png 格式，大小不超过2MB，建议尺寸180×180像素</p>
      </div>
    </div>
  );
}
