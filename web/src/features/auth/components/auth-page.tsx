import { Link, useNavigate } from '@tanstack/react-router';
import { ShieldCheck, X } from 'lucide-react';
import { useState } from 'react';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { LoginForm } from './login-form';
import { RegisterForm } from './register-form';

type AuthTab = 'login' | 'register';

const headings: Record<AuthTab, { title: string; subtitle: string }> = {
  login: { title: 'Sign in to your account', subtitle: 'Enter your credentials to access your collection' },
  register: { title: 'Create an account', subtitle: 'Create an account to save and track your graded cards' },
};

/** /auth: Login and Register tabs; on success the visitor goes on to `returnTo`, or home. */
export function AuthPage({ returnTo }: { returnTo: string | undefined }) {
  const [tab, setTab] = useState<AuthTab>('login');
  const navigate = useNavigate();
  const goOn = () => void navigate({ href: returnTo ?? '/', replace: true });
  const { title, subtitle } = headings[tab];

  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <title>{`${tab === 'login' ? 'Sign in' : 'Create an account'} · Card Grader`}</title>
      <Card className="relative">
        <Tooltip>
          <TooltipTrigger asChild>
            <Link
              to="/"
              aria-label="Close"
              className={cn(buttonVariants({ variant: 'ghost', size: 'icon' }), 'absolute right-3 top-3 size-9 text-muted-foreground')}
            >
              <X aria-hidden />
            </Link>
          </TooltipTrigger>
          <TooltipContent>Close</TooltipContent>
        </Tooltip>
        <CardHeader className="pr-14">
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          <CardDescription>{subtitle}</CardDescription>
        </CardHeader>
        <CardContent>
          <Tabs value={tab} onValueChange={(value) => setTab(value as AuthTab)}>
            <TabsList className="grid w-full grid-cols-2">
              <TabsTrigger value="login">Login</TabsTrigger>
              <TabsTrigger value="register">Register</TabsTrigger>
            </TabsList>
            <TabsContent value="login" className="mt-6">
              <LoginForm onSignedIn={goOn} />
            </TabsContent>
            <TabsContent value="register" className="mt-6">
              <RegisterForm onRegistered={goOn} />
            </TabsContent>
          </Tabs>
        </CardContent>
        <CardFooter className="justify-center gap-2 border-t pt-5 text-sm text-muted-foreground">
          <ShieldCheck className="size-4 text-primary" aria-hidden />
          <span>Authentication is powered by AGSCard.</span>
        </CardFooter>
      </Card>
    </div>
  );
}
