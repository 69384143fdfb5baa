import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { registerSchema } from '@contracts/auth';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { useRegisterMutation } from '../api';
import { PasswordInput } from './password-input';

export function RegisterForm({ onRegistered }: { onRegistered: () => void }) {
  const registration = useRegisterMutation();
  const form = useForm<z.input<typeof registerSchema>, unknown, z.output<typeof registerSchema>>({
    resolver: zodResolver(registerSchema),
    defaultValues: {
      first_name: '',
      last_name: '',
      email: '',
      phone: '',
      password: '',
      password_confirmation: '',
      is_marketing_notifications_enabled: false,
    },
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label="Register"
      className="grid gap-4"
      onSubmit={form.handleSubmit((values) => registration.mutate(values, { onSuccess: onRegistered }))}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="register-first-name" label="First name" error={errors.first_name?.message}>
          {(control) => <Input {...control} autoComplete="given-name" {...form.register('first_name')} />}
        </Field>
        <Field id="register-last-name" label="Last name" error={errors.last_name?.message}>
          {(control) => <Input {...control} autoComplete="family-name" {...form.register('last_name')} />}
        </Field>
      </div>
      <Field id="register-email" label="Email" error={errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        )}
      </Field>
      <Field id="register-phone" label="Phone" error={errors.phone?.message}>
        {(control) => <Input {...control} type="tel" autoComplete="tel" {...form.register('phone')} />}
      </Field>
      <Field id="register-password" label="Password" error={errors.password?.message}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password')} />}
      </Field>
      <Field id="register-password-confirmation" label="Confirm password" error={errors.password_confirmation?.message}>
        {(control) => <PasswordInput {...control} autoComplete="new-password" {...form.register('password_confirmation')} />}
      </Field>
      <Controller
        control={form.control}
        name="is_marketing_notifications_enabled"
        render={({ field }) => (
          <div className="flex items-start gap-3 rounded-lg border bg-muted/40 p-3">
            <Checkbox
              id="register-marketing"
              className="mt-0.5"
              checked={field.value ?? false}
              onCheckedChange={(checked) => field.onChange(checked === true)}
              onBlur={field.onBlur}
              ref={field.ref}
              aria-describedby="register-marketing-hint"
            />
            <div className="grid gap-1">
              <Label htmlFor="register-marketing">Marketing Notifications</Label>
              <p id="register-marketing-hint" className="text-sm text-muted-foreground">
                Receive promotional offers and updates from the provider
              </p>
            </div>
          </div>
        )}
      />
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={registration.isPending}>
        {registration.isPending ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
