import { Form, Input, InputNumber, Modal, Switch } from 'antd';
import { MSG, type BookDetail } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { toUpdateRequest, type BookFields } from '../book-form.ts';
import { useUpdateBook } from '../queries.ts';

export interface BookEditModalProps {
  book: BookDetail;
  open: boolean;
  onClose: () => void;
}

/** The staff form that changes a book's catalogue fields and its two switches. */
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
        initialValues={{
          title: book.title,
          author: book.author,
          publishDynasty: book.publishDynasty,
          coverageDynasty: book.coverageDynasty,
          callNumber: book.callNumber,
          notes: book.notes,
          actualVolume: book.actualVolume,
          bookNumber: book.bookNumber,
          isVisible: book.isVisible,
          isOpen: book.isOpen,
        }}
      >
        <Form.Item
          label="书名"
          name="title"
          rules={[{ required: true, whitespace: true, message: '请输入书名' }]}
        >
          <Input maxLength={200} />
        </Form.Item>
        <Form.Item label="作者" name="author">
          <Input maxLength={200} />
        </Form.Item>
        <div className="form-row">
          <Form.Item label="朝代" name="publishDynasty">
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item label="版本" name="coverageDynasty">
            <Input maxLength={200} />
          </Form.Item>
        </div>
        <Form.Item label="索书号" name="callNumber">
          <Input maxLength={100} />
        </Form.Item>
        <div className="form-row">
          <Form.Item label="卷数" name="actualVolume">
            <InputNumber min={0} max={100000} precision={0} className="full-width" />
          </Form.Item>
          <Form.Item label="册数" name="bookNumber">
            <InputNumber min={0} max={100000} precision={0} className="full-width" />
          </Form.Item>
        </div>
        <Form.Item label="附注" name="notes">
          <Input.TextArea maxLength={4000} autoSize={{ minRows: 2, maxRows: 8 }} />
        </Form.Item>
        <div className="form-row">
          <Form.Item label="公开显示" name="isVisible" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item label="开放在线阅读" name="isOpen" valuePropName="checked">
            <Switch />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
