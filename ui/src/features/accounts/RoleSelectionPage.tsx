import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { CalendarCheck, GraduationCap, Loader2, MessageSquare, TrendingUp, UserCheck } from 'lucide-react';
import { errorMessage } from '../../app/api.ts';
import { ProtectedRoute } from '../../app/auth/ProtectedRoute.tsx';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { useDocumentTitle } from '../../app/useDocumentTitle.ts';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from './api.ts';

const benefits = [
  { icon: CalendarCheck, text: 'Book your own sessions' },
  { icon: MessageSquare, text: 'Direct tutor communication' },
  { icon: TrendingUp, text: 'Track your progress' },
  { icon: UserCheck, text: 'Manage your schedule' },
] as const;

/** /role-selection (spec part 1 §2, part 2 §2): the single Student option. */
export function RoleSelectionPage() {
  useDocumentTitle('Choose Your Account');
  return <ProtectedRoute>{(user) => <RoleSelection user={user} />}</ProtectedRoute>;
}

function RoleSelection({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation({
    mutationFn: () => accountsApi.becomeStudent(),
    onSuccess: async (updated) => {
      queryClient.setQueryData<User | null>(currentUserKey, updated);
      toast({ title: 'Student Account Created', description: 'Your student account is ready.', variant: 'success' });
      await navigate({ to: '/student' });
    },
    onError: (error) => {
      toast({ title: 'Error', description: errorMessage(error, 'Failed to create account. Please try again.'), variant: 'destructive' });
    },
  });

  return (
    <section className="bg-gradient-to-b from-brand-50 to-white px-4 py-12 sm:py-16">
      <div className="mx-auto max-w-xl">
        <div className="text-center">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
            {user.firstName ? `Welcome to Topmark, ${user.firstName}!` : 'Welcome to Topmark!'}
          </h1>
          <p className="mt-3 text-base text-slate-600">Choose how you will use Topmark.</p>
        </div>
        <Card className="mt-8 border-brand-200 ring-1 ring-brand-100">
          <CardHeader>
            <div className="flex items-center gap-3">
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <GraduationCap className="size-6" aria-hidden="true" />
              </span>
              <div>
                <CardTitle as="h2">Student</CardTitle>
                <CardDescription>Learn one-on-one with a tutor matched to your subject and grade.</CardDescription>
              </div>
            </div>
          </CardHeader>
          <CardContent className="space-y-6">
            <ul className="grid gap-3 sm:grid-cols-2">
              {benefits.map(({ icon: Icon, text }) => (
                <li key={text} className="flex items-center gap-2 text-sm text-slate-700">
                  <Icon className="size-4 shrink-0 text-success" aria-hidden="true" />
                  {text}
                </li>
              ))}
            </ul>
            <Button size="lg" className="w-full" disabled={create.isPending} onClick={() => create.mutate()}>
              {create.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
              {create.isPending ? 'Creating Account...' : 'Create Student Account'}
            </Button>
          </CardContent>
        </Card>
      </div>
    </section>
  );
}
