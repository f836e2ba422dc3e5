// The simple demo form (an island): Title and Description, each checked on blur against its piece of
// SimpleFormSchema; a valid submit logs the values and shows the success alert. Nothing is sent.
import { SimpleFormSchema, type DemoField } from '../schemas/demo.ts';
import { Field, RequiredNote, SubmitButton, useSchemaForm, type DemoFormText } from '../pages/demo/formKit.tsx';

export interface DemoSimpleFormProps extends DemoFormText {
  fields: { title: DemoField; description: DemoField };
}

export default function DemoSimpleForm(p: DemoSimpleFormProps) {
  const form = useSchemaForm(SimpleFormSchema, { title: '', description: '' }, p);
  return (
    <form className="form demo-form" method="post" onSubmit={form.onSubmit} noValidate={form.noValidate}>
      <RequiredNote text={p} />
      <Field field={form.bind('title')} text={p.fields.title}>
        {(c) => <input type="text" autoComplete="off" {...c} />}
      </Field>
      <Field field={form.bind('description')} text={p.fields.description}>
        {(c) => <textarea rows={5} {...c} />}
      </Field>
      <SubmitButton text={p} submitting={form.submitting} ready={form.hydrated} />
    </form>
  );
}
