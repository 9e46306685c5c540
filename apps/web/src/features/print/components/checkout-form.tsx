import { Button, Checkbox, Form, Input, Radio, type FormInstance } from 'antd';
import { isValidPhone, MSG, type CheckoutRequest, type PublicSite } from '@guji/shared';
import { toast } from '../../../components/toast.ts';
import { money } from './print-item-cells.tsx';

/** The checkout form's fields, as the reader fills them in. */
export interface CheckoutFields {
  extract: 0 | 1;
  payment?: 0 | 1;
  isInvoice: boolean;
  invoiceTitle?: string;
  consignee?: string;
  consigneePhonenum?: string;
  deliveryAddress?: string;
}

/** The checkout request for the selected items: only the fields the chosen pickup and invoice ask for. */
export function checkoutRequest(itemIds: number[], values: CheckoutFields): CheckoutRequest {
  return {
    itemIds,
    extract: values.extract,
    ...(values.extract === 0 ? { payment: values.payment } : {}),
    isInvoice: values.isInvoice ? 1 : 0,
    ...(values.isInvoice ? { invoiceTitle: values.invoiceTitle } : {}),
    ...(values.extract === 1
      ? {
          consignee: values.consignee,
          consigneePhonenum: values.consigneePhonenum,
          deliveryAddress: values.deliveryAddress,
        }
      : {}),
  };
}

interface CheckoutFormProps {
  form: FormInstance<CheckoutFields>;
  site: PublicSite | undefined;
  /** The watched pickup (0 at the desk, 1 by post) and invoice choice. */
  extract: 0 | 1;
  isInvoice: boolean;
  selectedCount: number;
  totalFen: number;
  pending: boolean;
  onFinish: (values: CheckoutFields) => void;
}

/** 结算: pickup (at the desk with its payment, or by post with the address), invoice, and the checkout button. */
export function CheckoutForm({
  form,
  site,
  extract,
  isInvoice,
  selectedCount,
  totalFen,
  pending,
  onFinish,
}: CheckoutFormProps) {
  return (
    <Form<CheckoutFields>
      form={form}
      layout="vertical"
      className="checkout-form"
      initialValues={{ extract: 0, isInvoice: false }}
      onFinish={onFinish}
    >
      <h2 className="personal-subtitle">结算</h2>
      <Form.Item
        name="extract"
        label="取件方式"
        rules={[{ required: true, message: MSG.checkoutExtractRequired }]}
      >
        <Radio.Group
          options={[
            { value: 0, label: '到馆自取' },
            ...(site?.printPostEnabled && site.scanPay ? [{ value: 1, label: '邮寄（扫码支付）' }] : []),
          ]}
        />
      </Form.Item>
      {extract === 0 ? <PaymentField site={site} /> : <DeliveryFields />}
      <Form.Item name="isInvoice" valuePropName="checked">
        <Checkbox>开具发票</Checkbox>
      </Form.Item>
      {isInvoice && (
        <Form.Item
          name="invoiceTitle"
          label="发票抬头"
          rules={[{ required: true, whitespace: true, message: MSG.checkoutInvoiceTitleRequired }]}
        >
          <Input maxLength={100} />
        </Form.Item>
      )}
      <Button
        type="primary"
        loading={pending}
        onClick={() => {
          // Spec §5: the selection is checked first.
          if (selectedCount === 0) toast.warning(MSG.checkoutSelectOne);
          else form.submit();
        }}
      >
        结算（{money(totalFen)}）
      </Button>
    </Form>
  );
}

/** Payment for a pickup at the desk: cash, or scan-to-pay while a provider is live. */
function PaymentField({ site }: { site: PublicSite | undefined }) {
  return (
    <Form.Item
      name="payment"
      label="支付方式"
      rules={[{ required: true, message: MSG.checkoutPaymentRequired }]}
    >
      <Radio.Group
        options={[
          { value: 0, label: '现金（到馆付款）' },
          // Offered only while a payment provider is live (PAYMENT_PROVIDER).
          ...(site?.scanPay === false ? [] : [{ value: 1, label: '扫码支付' }]),
        ]}
      />
    </Form.Item>
  );
}

/** Where a posted order goes: consignee, their mobile number and the address. */
function DeliveryFields() {
  return (
    <>
      <Form.Item
        name="consignee"
        label="收件人"
        rules={[{ required: true, whitespace: true, message: MSG.checkoutConsigneeRequired }]}
      >
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item
        name="consigneePhonenum"
        label="收件人手机号"
        rules={[
          { required: true, message: MSG.checkoutPhoneRequired },
          {
            validator: (_, value: string | undefined) =>
              !value || isValidPhone(value) ? Promise.resolve() : Promise.reject(new Error(MSG.phoneInvalid)),
          },
        ]}
      >
        <Input maxLength={11} inputMode="numeric" />
      </Form.Item>
      <Form.Item
        name="deliveryAddress"
        label="收件地址"
        rules={[{ required: true, whitespace: true, message: MSG.checkoutAddressRequired }]}
      >
        <Input maxLength={200} />
      </Form.Item>
    </>
  );
}
