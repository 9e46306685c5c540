import { Form, Modal } from 'antd';
import { MSG, type BookDetail } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { toBookFields, toUpdateRequest, type BookFields } from '../book-form.ts';
import { BookFieldItems } from './book-fields.tsx';
import { useUpdateBook } from '../queries.ts';

export interface BookEditModalProps {
  book: BookDetail;
  open: boolean;
  onClose: () => void;
}

/** The staff form on a book's page that changes its catalogue record (every field, classification too). */
export function BookEditModal({ book, open, onClose }: BookEditModalProps) {
  const [form] = Form.useForm<BookFields>();
  const update = useUpdateBook(book.catalogId);

  const onFinish = (fields: BookFields) => {
    update.mutate(toUpdateRequest(fields), {
      onSuccess: () => {
        toast.success(MSG.modifySuccess);
        onClose();
      },
    });
  };

  return (
    <Modal
      title="编辑古籍信息"
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      cancelText="取消"
      confirmLoading={update.isPending}
      destroyOnHidden
      forceRender={false}
    >
      <Form<BookFields>
        form={form}
        name="book-edit"
        layout="vertical"
        onFinish={onFinish}
        initialValues={toBookFields(book)}
      >
        <BookFieldItems />
      </Form>
    </Modal>
  );
}
