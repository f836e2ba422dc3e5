// The demo forms' validation rules (SPEC section 5): every rule with its exact message, the format edge cases,
// the per-field helpers the islands use, and the demo content file against its schema.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { AddressFormSchema, DemoFormsSchema, SimpleFormSchema, fieldError, formErrors } from '../../templates/schemas/demo.ts';
import { nest } from '../../templates/pages/demo/formKit.tsx';

const validAddress = {
  fullName: 'Ada Lovelace', email: 'ada@example.com', phone: '123-456-7890',
  address: { street: '1 Main St', city: 'Springfield', state: 'IL', zipCode: '12345', country: 'US' },
};
const addressMessage = (path: string, value: string) => fieldError(AddressFormSchema, path, value);

describe('SimpleFormSchema', () => {
  it('requires a title and a description, with their messages', () => {
    expect(formErrors(SimpleFormSchema, { title: '', description: '' })).toEqual({ title: 'Title is required', description: 'Description is required' });
    expect(formErrors(SimpleFormSchema, {})).toEqual({ title: 'Title is required', description: 'Description is required' });
  });
  it('accepts one character in each field', () => {
    expect(SimpleFormSchema.safeParse({ title: 'a', description: 'b' }).success).toBe(true);
  });
});

describe('AddressFormSchema', () => {
  it('accepts a complete valid form and keeps the address nested', () => {
    const r = AddressFormSchema.safeParse(validAddress);
    expect(r.success).toBe(true);
    expect(r.data).toEqual(validAddress);
  });

  it('gives every required message, exactly one per field, for the empty form', () => {
    const empty = { fullName: '', email: '', phone: '', address: { street: '', city: '', state: '', zipCode: '', country: '' } };
    expect(formErrors(AddressFormSchema, empty)).toEqual({
      fullName: 'Full name is required',
      email: 'Email is required',
      'address.street': 'Street address is required',
      'address.city': 'City is required',
      'address.state': 'State is required',
      'address.zipCode': 'Zip code is required',
      'address.country': 'Country is required',
      phone: 'Phone number is required',
    });
  });

  it('treats a full name of only spaces as empty and trims a valid one', () => {
    expect(addressMessage('fullName', '   ')).toBe('Full name is required');
    expect(AddressFormSchema.parse({ ...validAddress, fullName: '  Ada  ' }).fullName).toBe('Ada');
  });

  it.each(['a@b.co', 'A@B.COM', 'first.last+tag@sub.example.org', 'x_y%z@host-1.io'])('accepts the email %s', (v) => {
    expect(addressMessage('email', v)).toBeNull();
  });
  it.each(['a@b.c', 'plain', 'a@b', '@b.com', 'a@.com1', 'a b@c.com', 'a@b.c0m'])('rejects the email %s', (v) => {
    expect(addressMessage('email', v)).toBe('Invalid email address');
  });

  it.each(['12345', '12345-6789'])('accepts the zip code %s', (v) => {
    expect(addressMessage('address.zipCode', v)).toBeNull();
  });
  it.each(['1234', '123456', '123456789', '12345-', '12345-678', '12345 6789', 'abcde', ' 12345'])('rejects the zip code %s', (v) => {
    expect(addressMessage('address.zipCode', v)).toBe('Invalid zip code format');
  });

  it.each(['123-456-7890', '(123) 456-7890', '+1 123.456.7890', '+44 123 456 7890', '1234567890', '+123-123-456-7890'])(
    'accepts the phone %s', (v) => { expect(addressMessage('phone', v)).toBeNull(); },
  );
  it.each(['12-34', '123-456-789', '+1234 123 456 7890', '123_456_7890', '(123 456 7890', 'phone'])('rejects the phone %s', (v) => {
    expect(addressMessage('phone', v)).toBe('Invalid phone number format');
  });

  it('reports a missing nested field at its dotted path', () => {
    const { address: _a, ...rest } = validAddress;
    const errors = formErrors(AddressFormSchema, { ...rest, address: { ...validAddress.address, city: '' } });
    expect(errors).toEqual({ 'address.city': 'City is required' });
  });

  it('refuses a path that is not a field', () => {
    expect(() => fieldError(AddressFormSchema, 'address.planet', 'x')).toThrow(/No field/);
  });
});

describe('nest', () => {
  it('builds the nested values the schema expects from the flat form state', () => {
    expect(nest({ fullName: 'A', 'address.city': 'B', 'address.zipCode': 'C' })).toEqual({ fullName: 'A', address: { city: 'B', zipCode: 'C' } });
  });
});

describe('content/demo/forms.yaml', () => {
  const data = DemoFormsSchema.parse(YAML.parse(fs.readFileSync('content/demo/forms.yaml', 'utf8')));
  it('lists the seven countries of the spec, in order', () => {
    expect(data.address.countries.map((c) => `${c.label} ${c.value}`)).toEqual([
      'United States US', 'Canada CA', 'United Kingdom UK', 'Australia AU', 'Germany DE', 'France FR', 'Japan JP',
    ]);
  });
  it('has the success alert, the country placeholder and the phone placeholder of the spec', () => {
    expect(data.successMessage).toBe('Form submitted successfully!');
    expect(data.address.countryPlaceholder).toBe('Select a country');
    expect(data.address.fields.phone.placeholder).toBe('123-456-7890');
  });
});
