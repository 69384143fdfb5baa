import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoginInput, RegisterInput, SessionUser, User } from '@contracts/auth';
import { toast } from '@/components/ui/use-toast';
import { ApiError, apiRequest } from '@/lib/api-client';

// The client keeps the signed-in user under this key (SPEC.md §7); null means signed out. It is read from
// /api/session, which answers a guest with { user: null } instead of the 401 /api/user gives, so no guest page logs
// a failed request in the console.
export const userQueryOptions = queryOptions({
  queryKey: ['/api/user'],
  queryFn: async ({ signal }): Promise<User | null> => {
    const response = await fetch('/api/session', { credentials: 'include', signal });
    if (!response.ok) throw new ApiError(response.status, response.statusText, await response.text());
    return ((await response.json()) as SessionUser).user;
  },
});

/** The signed-in user, null when signed out, undefined while the first answer is on its way. */
export function useUser() {
  const { data, isPending } = useQuery(userQueryOptions);
  return { user: data ?? null, isPending };
}

// Login and registration answer with the user or with { user } (SPEC.md §7).
async function readUser(response: Response): Promise<User> {
  const body = (await response.json()) as User | { user: User };
  return 'user' in body ? body.user : body;
}

/** Someone else may now be using this browser: everything cached for the previous account is read again. */
function switchAccount(queryClient: QueryClient, user: User | null) {
  queryClient.setQueryData(userQueryOptions.queryKey, user);
  void queryClient.resetQueries({ predicate: (query) => query.queryKey[0] !== userQueryOptions.queryKey[0] });
}

function serverMessageOf(error: Error): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

function greetingName(user: User): string {
  return user.first_name || user.email || 'user';
}

export function useLoginMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => readUser(await apiRequest('POST', '/api/agscard/login', input)),
    onSuccess: (user) => {
      toast({ title: 'Login successful', description: `Welcome back, ${greetingName(user)}!`, duration: 2000 });
      switchAccount(queryClient, user);
    },
    onError: (error) => {
      toast({
        title: 'AGSCard Login failed',
        description: serverMessageOf(error) ?? 'AGSCard login failed',
        variant: 'destructive',
        duration: 3000,
      });
    },
  });
}

/** The toast for a refused registration (SPEC.md §5 and §8): duplicate email, password rules, or the server's words. */
export function registrationFailure(message: string): { title: string; description: string } {
  const lower = message.toLowerCase();
  if (lower.includes('already registered') || lower.includes('already exists')) {
    return { title: 'Account Already Exists', description: 'This email is already registered. Please try logging in instead.' };
  }
  if (lower.includes('password')) {
    return { title: 'Password Error', description: 'Please check your password requirements.' };
  }
  return { title: 'Registration Failed', description: message };
}

export function useRegisterMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: RegisterInput) => readUser(await apiRequest('POST', '/api/agscard/register', input)),
    onSuccess: (user) => {
      toast({
        title: 'Registration Successful! ✓',
        description: `Welcome, ${greetingName(user)}! Your account has been created successfully.`,
        duration: 4000,
      });
      switchAccount(queryClient, user);
    },
    onError: (error) => {
      const failure = registrationFailure(serverMessageOf(error) ?? 'AGSCard registration failed');
      toast({ ...failure, variant: 'destructive', duration: 5000 });
    },
  });
}

export function useLogoutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await apiRequest('POST', '/api/logout');
    },
    onSuccess: () => {
      toast({ title: 'Logged out', description: 'You have been successfully logged out.', duration: 2000 });
      switchAccount(queryClient, null);
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: error.message, variant: 'destructive', duration: 2000 });
    },
  });
}
