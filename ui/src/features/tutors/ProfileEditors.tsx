import { zodResolver } from '@hookform/resolvers/zod';
import { changeNameBody, MAX_PICTURE_BYTES, PICTURE_NOT_AN_IMAGE, PICTURE_TOO_LARGE, type TutorProfile } from '@shared/tutors/tutorApi.ts';
import { BIO_MAX_LENGTH } from '@shared/tutors/tutorDecider.ts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { serverMessage } from '../../app/api.ts';
import type { User } from '../../app/auth/types.ts';
import { currentUserKey } from '../../app/auth/useCurrentUser.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { initials, Loading, PendingButton } from '../../components/parts.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { tutorKeys, tutorsApi, UploadError } from './api.ts';

type NameValues = z.input<typeof changeNameBody>;

/** First and last name (PATCH /api/user/name; both non-empty after trim; failure "Failed to update name"). */
export function NameEditor({ user, onSaved }: { user: User; onSaved?: () => void }) {
  const queryClient = useQueryClient();
  const id = useId();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<NameValues, unknown, z.output<typeof changeNameBody>>({
    resolver: zodResolver(changeNameBody),
    defaultValues: { firstName: user.firstName, lastName: user.lastName },
  });
  const save = useMutation({
    mutationFn: (v: z.output<typeof changeNameBody>) => tutorsApi.changeName(v.firstName, v.lastName),
    onSuccess: async (_answer, v) => {
      queryClient.setQueryData<User | null>(currentUserKey, (u) => (u ? { ...u, firstName: v.firstName, lastName: v.lastName } : u));
      await queryClient.invalidateQueries({ queryKey: currentUserKey });
      reset(v);
      toast({ title: 'Name updated', variant: 'success' });
      onSaved?.();
    },
    onError: (error) =>
      toast({ title: 'Failed to update name', description: serverMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))} className="grid gap-4 sm:grid-cols-2">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-first`}>First name</Label>
        <Input id={`${id}-first`} autoComplete="given-name" {...register('firstName')} {...fieldA11y(`${id}-first`, errors.firstName)} />
        <FieldMessage id={`${id}-first-error`} error={errors.firstName} />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-last`}>Last name</Label>
        <Input id={`${id}-last`} autoComplete="family-name" {...register('lastName')} {...fieldA11y(`${id}-last`, errors.lastName)} />
        <FieldMessage id={`${id}-last-error`} error={errors.lastName} />
      </div>
      <div className="sm:col-span-2">
        <PendingButton type="submit" pending={save.isPending} disabled={!isDirty} label="Save name" pendingLabel="Saving..." />
      </div>
    </form>
  );
}

const bioForm = z.object({
  bio: z.string().max(BIO_MAX_LENGTH, `Bio must be at most ${BIO_MAX_LENGTH} characters`),
  experience: z
    .string()
    .trim()
    .refine((v) => v === '' || (/^\d+$/.test(v) && Number(v) <= 80), 'Experience must be a whole number of years between 0 and 80'),
});
type BioValues = z.output<typeof bioForm>;

/** Bio and years of experience (PUT /api/tutors/{id}; failure "Failed to update bio"). */
export function BioEditor({
  profile,
  requireBoth = false,
  submitLabel = 'Save profile',
  onSaved,
}: {
  profile: TutorProfile;
  /** Onboarding: a bio and the experience are both needed. */
  requireBoth?: boolean;
  submitLabel?: string;
  onSaved?: () => void;
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const schema = requireBoth
    ? bioForm.extend({
        bio: bioForm.shape.bio.refine((v) => v.trim() !== '', 'Please write a short bio'),
        experience: bioForm.shape.experience.refine((v) => v !== '', 'Please enter your years of experience'),
      })
    : bioForm;
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isDirty },
  } = useForm<BioValues>({
    resolver: zodResolver(schema),
    defaultValues: { bio: profile.bio ?? '', experience: profile.experience === null ? '' : String(profile.experience) },
  });
  const bioLength = watch('bio').length;
  const save = useMutation({
    mutationFn: (v: BioValues) =>
      tutorsApi.editProfile(profile.id, { bio: v.bio.trim(), experience: v.experience === '' ? null : Number(v.experience) }),
    onSuccess: async (_a, v) => {
      await queryClient.invalidateQueries({ queryKey: tutorKeys.profile });
      reset(v);
      toast({ title: 'Profile updated', variant: 'success' });
      onSaved?.();
    },
    onError: (error) =>
      toast({ title: 'Failed to update bio', description: serverMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  return (
    <form noValidate onSubmit={handleSubmit((v) => save.mutate(v))} className="grid gap-4">
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-bio`}>Bio</Label>
        <Textarea
          id={`${id}-bio`}
          rows={5}
          placeholder="Tell students and parents about your teaching style, background and the subjects you love."
          {...register('bio')}
          {...fieldA11y(`${id}-bio`, errors.bio, `${id}-bio-count`)}
        />
        <p id={`${id}-bio-count`} className="text-xs text-slate-500">
          {bioLength}/{BIO_MAX_LENGTH} characters
        </p>
        <FieldMessage id={`${id}-bio-error`} error={errors.bio} />
      </div>
      <div className="grid max-w-xs gap-1.5">
        <Label htmlFor={`${id}-experience`}>Experience (years)</Label>
        <Input
          id={`${id}-experience`}
          type="number"
          inputMode="numeric"
          min={0}
          max={80}
          {...register('experience')}
          {...fieldA11y(`${id}-experience`, errors.experience)}
        />
        <FieldMessage id={`${id}-experience-error`} error={errors.experience} />
      </div>
      <div>
        <PendingButton
          type="submit"
          pending={save.isPending}
          disabled={!isDirty && !requireBoth}
          label={submitLabel}
          pendingLabel="Saving..."
        />
      </div>
    </form>
  );
}

/** Checks a chosen file as spec part 2 §5 says: an image of at most 5MB. */
export function pictureProblem(file: File): { title: string; description: string } | null {
  if (!file.type.startsWith('image/')) return { title: 'Invalid file type', description: PICTURE_NOT_AN_IMAGE };
  if (file.size > MAX_PICTURE_BYTES) return { title: 'File too large', description: PICTURE_TOO_LARGE };
  return null;
}

/** Profile picture upload with a preview (upload URL, PUT the bytes, record the URL). */
export function PictureUpload({ profile, user }: { profile: TutorProfile; user: User }) {
  const queryClient = useQueryClient();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const upload = useMutation({
    mutationFn: (file: File) => tutorsApi.uploadPicture(file),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: tutorKeys.profile });
      toast({ title: 'Profile picture updated', variant: 'success' });
    },
    onError: (error) => {
      setPreview(null);
      toast(
        error instanceof UploadError
          ? { title: 'Upload failed', description: serverMessage(error, 'Upload failed'), variant: 'destructive' }
          : { title: 'Failed to update profile picture', description: serverMessage(error, 'Please try again.'), variant: 'destructive' },
      );
    },
  });

  const onChoose = (file: File | undefined) => {
    if (!file) return;
    const bad = pictureProblem(file);
    if (bad) {
      setProblem(bad.description);
      toast({ ...bad, variant: 'destructive' });
      if (input.current) input.current.value = '';
      return;
    }
    setProblem(null);
    setPreview(URL.createObjectURL(file));
    upload.mutate(file);
  };

  const shown = preview ?? profile.profileImagePath;
  return (
    <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
      {shown ? (
        <img src={shown} alt="Your profile" className="size-24 shrink-0 rounded-full border border-border object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="inline-flex size-24 shrink-0 items-center justify-center rounded-full bg-brand-700 text-2xl font-semibold text-white"
        >
          {initials(user.firstName, user.lastName)}
        </span>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor={`${id}-picture`}>Profile picture</Label>
        <input
          ref={input}
          id={`${id}-picture`}
          type="file"
          accept="image/*"
          className="block w-full max-w-xs text-sm text-slate-700 file:mr-3 file:rounded-md file:border file:border-input file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-900 hover:file:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60"
          aria-describedby={`${id}-picture-hint${problem ? ` ${id}-picture-error` : ''}`}
          onChange={(e) => onChoose(e.target.files?.[0])}
          disabled={upload.isPending}
        />
        {upload.isPending ? <Loading label="Uploading..." /> : null}
        <p id={`${id}-picture-hint`} className="text-xs text-slate-500">
          JPG, PNG, GIF or WebP up to 5MB. A square picture of 200x200 or larger works best.
        </p>
        {problem ? <FieldMessage id={`${id}-picture-error`} error={{ message: problem }} /> : null}
      </div>
    </div>
  );
}
