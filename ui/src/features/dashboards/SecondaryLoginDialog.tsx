import { zodResolver } from '@hookform/resolvers/zod';
import {
  type ParentStudent,
  type SecondaryLoginInput,
  type SecondaryLoginPayload,
  secondaryLoginSchema,
} from '@shared/accounts/accountApi.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, Eye, EyeOff, KeyRound, Loader2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { readApiError } from '../../app/auth/apiErrors.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Alert, AlertDescription } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { toast } from '../../components/ui/toast.tsx';
import { accountsApi } from '../accounts/api.ts';

const USERNAME_TAKEN = 'Username already exists';

/**
 * A parent's screen for their student's view-only (secondary) login: create it, or change its
 * username and password (POST /api/student/secondary-login sets both at once; there is no way to
 * rename without choosing a password, nor to read the old one).
 */
export function SecondaryLoginDialog({ student }: { student: ParentStudent }) {
  const [open, setOpen] = useState(false);
  const exists = student.hasSecondaryLogin;
  const name = `${student.firstName} ${student.lastName}`.trim();
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`${exists ? 'Change' : 'Create'} the view-only login of ${name}`}>
          <KeyRound aria-hidden="true" />
          {exists ? 'Change view-only login' : 'Create view-only login'}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {exists ? `Change ${student.firstName}'s view-only login` : `Create a view-only login for ${student.firstName}`}
          </DialogTitle>
          <DialogDescription>
            A view-only login follows {student.firstName}'s courses, sessions and progress but cannot buy, book or change anything. It signs
            in on the Student Login page with this username and password.
            {exists ? ' Saving replaces the current username and password; share the new ones.' : ''}
          </DialogDescription>
        </DialogHeader>
        {open ? <SecondaryLoginForm student={student} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function SecondaryLoginForm({ student, onDone }: { student: ParentStudent; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [showPassword, setShowPassword] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SecondaryLoginInput, unknown, SecondaryLoginPayload>({
    resolver: zodResolver(secondaryLoginSchema),
    defaultValues: { studentId: student.id, secondaryUsername: student.secondaryUsername ?? '', password: '' },
  });

  const save = useMutation({
    mutationFn: (payload: SecondaryLoginPayload) => accountsApi.setSecondaryLogin({ ...payload, studentId: student.id }),
    onSuccess: async (_answer, payload) => {
      await queryClient.invalidateQueries({ queryKey: accountsApi.parentStudentsKey });
      toast({
        title: student.hasSecondaryLogin ? 'View-only login updated' : 'View-only login created',
        description: `${student.firstName} can now sign in as ${payload.secondaryUsername} on the Student Login page.`,
        variant: 'success',
      });
      onDone();
    },
    onError: (error) => {
      const answer = readApiError(error);
      if (answer.kind === 'network') {
        setFailure('The server could not be reached. Check your connection and try again.');
      } else if (answer.message === USERNAME_TAKEN) {
        setError('secondaryUsername', { message: 'This username is taken. Please choose another.' }, { shouldFocus: true });
      } else {
        setFailure(answer.message ?? 'Failed to save the view-only login. Please try again.');
      }
    },
  });

  const pending = save.isPending;
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => {
        setFailure(null);
        save.mutate(values);
      })}
    >
      <div className="space-y-2">
        <Label htmlFor="secondary-username">View-only username</Label>
        <Input
          id="secondary-username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          {...fieldA11y('secondary-username', errors.secondaryUsername, 'secondary-username-hint')}
          {...register('secondaryUsername')}
        />
        <p id="secondary-username-hint" className="text-xs text-slate-600">
          At least 3 characters, different from every other Topmark username.
        </p>
        <FieldMessage id="secondary-username-error" error={errors.secondaryUsername} />
      </div>
      <div className="space-y-2">
        <Label htmlFor="secondary-password">{student.hasSecondaryLogin ? 'New password' : 'Password'}</Label>
        <div className="relative">
          <Input
            id="secondary-password"
            type={showPassword ? 'text' : 'password'}
            autoComplete="new-password"
            className="pr-11"
            {...fieldA11y('secondary-password', errors.password, 'secondary-password-hint')}
            {...register('password')}
          />
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="absolute top-0 right-0 h-10"
            aria-label={showPassword ? 'Hide password' : 'Show password'}
            aria-pressed={showPassword}
            onClick={() => setShowPassword((shown) => !shown)}
          >
            {showPassword ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
          </Button>
        </div>
        <p id="secondary-password-hint" className="text-xs text-slate-600">
          At least 6 characters. Not your own password.
        </p>
        <FieldMessage id="secondary-password-error" error={errors.password} />
      </div>
      {failure ? (
        <Alert variant="destructive">
          <CircleAlert aria-hidden="true" />
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
          {pending ? 'Saving...' : 'Save view-only login'}
        </Button>
      </DialogFooter>
    </form>
  );
}
