import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { addressInputSchema, type AddressInput, type ShippingAddress } from '@contracts/addresses';
import { COUNTRIES, REGIONS, type Country } from '@contracts/regions';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect } from '@/components/ui/native-select';

type FormValues = z.input<typeof addressInputSchema>;

export function addressDefaults(address?: ShippingAddress): FormValues {
  return {
    fullName: address?.fullName ?? '',
    addressLine1: address?.addressLine1 ?? '',
    addressLine2: address?.addressLine2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zipCode: address?.zipCode ?? '',
    country: (address?.country as Country | undefined) ?? 'United States',
    phoneNumber: address?.phoneNumber ?? '',
    isDefault: address?.isDefault ?? false,
  };
}

/**
 * An address, with the rules the server applies (SPEC.md §5 plus what a carrier needs): one schema for both.
 * Used by the Address Book's dialogs and the wizard's "new address" tab.
 */
export function AddressForm({
  idPrefix,
  address,
  pending,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  idPrefix: string;
  address?: ShippingAddress;
  pending: boolean;
  submitLabel: string;
  onSubmit: (input: AddressInput) => void;
  onCancel?: () => void;
}) {
  const form = useForm<FormValues, unknown, z.output<typeof addressInputSchema>>({
    resolver: zodResolver(addressInputSchema),
    defaultValues: addressDefaults(address),
  });
  const { errors } = form.formState;
  const country = (form.watch('country') ?? 'United States') as Country;
  const isUs = country === 'United States';
  const id = (name: string) => `${idPrefix}-${name}`;

  return (
    <form
      noValidate
      aria-label={submitLabel}
      className="grid gap-4"
      onSubmit={(event) => {
        // The wizard's form sits inside no other form, but a dialog's submit must not reach the page behind it.
        event.stopPropagation();
        void form.handleSubmit((values) => onSubmit(values))(event);
      }}
    >
      <Field id={id('full-name')} label="Full name" error={errors.fullName?.message}>
        {(control) => <Input {...control} autoComplete="name" {...form.register('fullName')} />}
      </Field>
      <Field id={id('line1')} label="Address line 1" error={errors.addressLine1?.message}>
        {(control) => <Input {...control} autoComplete="address-line1" {...form.register('addressLine1')} />}
      </Field>
      <Field id={id('line2')} label="Address line 2 (optional)" error={errors.addressLine2?.message}>
        {(control) => <Input {...control} autoComplete="address-line2" {...form.register('addressLine2')} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={id('city')} label="City" error={errors.city?.message}>
          {(control) => <Input {...control} autoComplete="address-level2" {...form.register('city')} />}
        </Field>
        <Field id={id('country')} label="Country" error={errors.country?.message}>
          {(control) => (
            <NativeSelect
              {...control}
              autoComplete="country-name"
              {...form.register('country', { onChange: () => form.setValue('state', '') })}
            >
              {COUNTRIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={id('state')} label={isUs ? 'State' : 'Province'} error={errors.state?.message}>
          {(control) => (
            <NativeSelect {...control} autoComplete="address-level1" {...form.register('state')}>
              <option value="">{isUs ? 'Choose a state' : 'Choose a province'}</option>
              {REGIONS[country].map((r) => (
                <option key={r.code} value={r.code}>
                  {r.name}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
        <Field id={id('zip')} label={isUs ? 'ZIP code' : 'Postal code'} error={errors.zipCode?.message}>
          {(control) => <Input {...control} autoComplete="postal-code" placeholder={isUs ? '12345' : 'A1A 1A1'} {...form.register('zipCode')} />}
        </Field>
      </div>
      <Field id={id('phone')} label="Phone (optional)" error={errors.phoneNumber?.message}>
        {(control) => <Input {...control} type="tel" autoComplete="tel" {...form.register('phoneNumber')} />}
      </Field>
      <div className="flex items-center gap-3">
        <Checkbox
          id={id('default')}
          checked={form.watch('isDefault') ?? false}
          onCheckedChange={(checked) => form.setValue('isDefault', checked === true)}
        />
        <Label htmlFor={id('default')}>Use as my default shipping address</Label>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving...' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
