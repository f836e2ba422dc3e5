// The address demo form (an island): name, email, a nested postal address and phone, each checked on blur
// against its piece of AddressFormSchema; a valid submit logs { fullName, email, address: {…}, phone } and
// shows the success alert. Nothing is sent.
import { AddressFormSchema, type DemoField } from '../schemas/demo.ts';
import { Field, RequiredNote, SubmitButton, useSchemaForm, type DemoFormText } from '../pages/demo/formKit.tsx';

type FieldName = 'fullName' | 'email' | 'street' | 'city' | 'state' | 'zipCode' | 'country' | 'phone';

export interface DemoAddressFormProps extends DemoFormText {
  fields: Record<FieldName, DemoField>;
  countryPlaceholder: string;
  countries: { label: string; value: string }[];
}

// Keys are schema paths, in page order (the order decides which invalid field gets focus on submit).
const INITIAL = {
  fullName: '', email: '', 'address.street': '', 'address.city': '', 'address.state': '', 'address.zipCode': '',
  'address.country': '', phone: '',
};

export default function DemoAddressForm(p: DemoAddressFormProps) {
  const form = useSchemaForm(AddressFormSchema, INITIAL, p);
  const f = p.fields;
  return (
    <form className="form demo-form" method="post" onSubmit={form.onSubmit} noValidate={form.noValidate}>
      <RequiredNote text={p} />
      <Field field={form.bind('fullName')} text={f.fullName}>{(c) => <input type="text" autoComplete="name" {...c} />}</Field>
      <Field field={form.bind('email')} text={f.email}>
        {(c) => <input type="email" autoComplete="email" spellCheck={false} {...c} />}
      </Field>
      <Field field={form.bind('address.street')} text={f.street}>
        {(c) => <input type="text" autoComplete="address-line1" {...c} />}
      </Field>
      <div className="field-row">
        <Field field={form.bind('address.city')} text={f.city}>{(c) => <input type="text" autoComplete="address-level2" {...c} />}</Field>
        <Field field={form.bind('address.state')} text={f.state}>{(c) => <input type="text" autoComplete="address-level1" {...c} />}</Field>
      </div>
      <div className="field-row">
        <Field field={form.bind('address.zipCode')} text={f.zipCode}>
          {(c) => <input type="text" inputMode="numeric" autoComplete="postal-code" {...c} />}
        </Field>
        <Field field={form.bind('address.country')} text={f.country}>
          {({ placeholder: _none, ...c }) => (
            <select autoComplete="country" {...c}>
              <option value="">{p.countryPlaceholder}</option>
              {p.countries.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
            </select>
          )}
        </Field>
      </div>
      <Field field={form.bind('phone')} text={f.phone}>{(c) => <input type="tel" autoComplete="tel" {...c} />}</Field>
      <SubmitButton text={p} submitting={form.submitting} ready={form.hydrated} />
    </form>
  );
}
