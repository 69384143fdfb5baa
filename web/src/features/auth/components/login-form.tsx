import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from '@tanstack/react-router';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { loginSchema } from '@contracts/auth';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useLoginMutation } from '../api';
import { PasswordInput } from './password-input';

export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const login = useLoginMutation();
  const form = useForm<z.input<typeof loginSchema>, unknown, z.output<typeof loginSchema>>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  return (
    <form
      noValidate
      aria-label="Login"
      className="grid gap-4"
      onSubmit={form.handleSubmit((values) => login.mutate(values, { onSuccess: onSignedIn }))}
    >
      <Field id="login-email" label="Email" error={errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" placeholder="you@example.com" {...form.register('email')} />
        )}
      </Field>
      <Field id="login-password" label="Password" error={errors.password?.message}>
        {(control) => <PasswordInput {...control} autoComplete="current-password" {...form.register('password')} />}
      </Field>
      <Link to="/forgot-password" className="-mt-2 justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline">
        Forgot password?
      </Link>
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={login.isPending}>
        {login.isPending ? 'Signing in...' : 'Sign In'}
      </Button>
    </form>
  );
}
