import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Star } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { FieldMessage, fieldA11y } from '../../components/FieldMessage.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { editable, type Review, type ReviewFormValues, reviewFormSchema, reviewKeys, reviewsApi } from './api.ts';

const RATINGS = ['1', '2', '3', '4', '5'] as const;

/** Five stars, `rating` of them filled; read as "Rated n out of 5". */
export function Stars({ rating, className = 'size-4' }: { rating: number; className?: string }) {
  return (
    <span className="inline-flex items-center" role="img" aria-label={`Rated ${rating} out of 5`}>
      {RATINGS.map((r) => (
        <Star
          key={r}
          aria-hidden="true"
          className={`${className} ${Number(r) <= rating ? 'fill-amber-400 text-amber-500' : 'text-slate-300'}`}
        />
      ))}
    </span>
  );
}

/**
 * A completed session's rating (issue 24 §3): "Rate this session" until the family rates it, then
 * the stars given, with Edit while the week lasts.
 */
export function SessionReviewAction({ sessionId, review, subject }: { sessionId: string; review: Review | undefined; subject: string }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm" data-testid="session-review">
      {review ? (
        <>
          <span className="text-slate-600">Your rating:</span>
          <Stars rating={review.rating} />
          {editable(review) ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => setOpen(true)}>
              Edit review
            </Button>
          ) : null}
        </>
      ) : (
        <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
          <Star className="size-4" aria-hidden="true" />
          Rate this session
        </Button>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="sm:max-w-md">
          <DialogHeader>
            <DialogTitle>{review ? 'Edit your review' : 'Rate this session'}</DialogTitle>
            <DialogDescription>
              {subject}. Your rating helps other families choose; you can change it for 7 days after you first rate.
            </DialogDescription>
          </DialogHeader>
          {open ? <ReviewForm sessionId={sessionId} review={review} onDone={() => setOpen(false)} /> : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function ReviewForm({ sessionId, review, onDone }: { sessionId: string; review: Review | undefined; onDone: () => void }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<ReviewFormValues>({
    resolver: zodResolver(reviewFormSchema),
    defaultValues: { rating: review ? (String(review.rating) as ReviewFormValues['rating']) : undefined, comment: review?.comment ?? '' },
  });
  const save = useMutation({
    mutationFn: (values: ReviewFormValues) =>
      reviewsApi.rate(sessionId, { rating: Number(values.rating), comment: values.comment }, !!review),
    onSuccess: () => {
      toast({ title: review ? 'Review updated' : 'Thank you for your review', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      onDone();
    },
    onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const chosen = Number(watch('rating') ?? 0);
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(event) => void handleSubmit((values) => !save.isPending && save.mutate(values))(event)}
    >
      <fieldset className="grid gap-1.5" aria-describedby={errors.rating ? 'review-rating-error' : undefined}>
        <legend className="mb-1 text-sm font-medium text-slate-900">Rating</legend>
        <div className="flex gap-1">
          {RATINGS.map((r) => (
            <label key={r} className="cursor-pointer rounded-md p-1 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
              <input type="radio" value={r} className="sr-only" aria-label={`${r} star${r === '1' ? '' : 's'}`} {...register('rating')} />
              <Star aria-hidden="true" className={`size-7 ${Number(r) <= chosen ? 'fill-amber-400 text-amber-500' : 'text-slate-300'}`} />
            </label>
          ))}
        </div>
        <FieldMessage id="review-rating-error" error={errors.rating} />
      </fieldset>
      <div className="space-y-1.5">
        <Label htmlFor="review-comment">Comment (optional)</Label>
        <Textarea id="review-comment" rows={4} {...fieldA11y('review-comment', errors.comment)} {...register('comment')} />
        <FieldMessage id="review-comment-error" error={errors.comment} />
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : review ? 'Save changes' : 'Submit review'}
        </Button>
      </div>
    </form>
  );
}
