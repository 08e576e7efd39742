import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { EyeOff, MessageSquareQuote } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../app/api.ts';
import { ReasonDialog } from '../../components/console/ReasonDialog.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { sessionDateTime } from '../../lib/sessionFormat.ts';
import { type Review, reviewKeys, reviewsApi } from './api.ts';
import { Stars } from './SessionReview.tsx';

function ReviewItem({ review, zone, action }: { review: Review; zone: string; action?: ReactNode }) {
  return (
    <li className="rounded-md border border-border p-3" data-testid="review-item">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <Stars rating={review.rating} />
          <p className="mt-1 text-sm text-slate-600">
            {[review.subjectName, review.sessionStart ? sessionDateTime(review.sessionStart, zone) : null, review.studentName]
              .filter(Boolean)
              .join(' · ')}
          </p>
        </div>
        {review.hidden ? (
          <Badge variant="secondary">
            <EyeOff className="size-3.5" aria-hidden="true" />
            Comment hidden
          </Badge>
        ) : null}
      </div>
      {review.comment ? <p className="mt-2 text-sm break-words whitespace-pre-line text-slate-700">{review.comment}</p> : null}
      {review.hiddenReason ? <p className="mt-1 text-xs text-slate-500">Hidden: {review.hiddenReason}</p> : null}
      {action}
    </li>
  );
}

/** The tutor dashboard's reviews: what families said about their sessions, newest first. */
export function TutorReviewsCard({ zone }: { zone: string }) {
  const reviews = useQuery({ queryKey: reviewKeys.tutor, queryFn: reviewsApi.tutorReviews });
  const list = reviews.data ?? [];
  const average = list.length > 0 ? list.reduce((sum, r) => sum + r.rating, 0) / list.length : null;
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <MessageSquareQuote className="size-5 text-brand-700" aria-hidden="true" />
          Reviews
        </CardTitle>
        <CardDescription>
          {average === null
            ? 'Families can rate a session once it is completed.'
            : `${list.length} ${list.length === 1 ? 'review' : 'reviews'} · average ${average.toFixed(1)} (your card shows it from the third review)`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        {reviews.isPending ? (
          <p className="text-sm text-slate-600">Loading reviews...</p>
        ) : reviews.isError ? (
          <p className="text-sm text-destructive-text">Reviews could not be loaded.</p>
        ) : list.length === 0 ? (
          <p className="text-sm text-slate-600">No reviews yet.</p>
        ) : (
          <ul className={`grid gap-3 ${list.length > 4 ? 'max-h-96 overflow-y-auto pr-1' : ''}`}>
            {list.map((r) => (
              <ReviewItem key={r.sessionId} review={r} zone={zone} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The console's latest reviews (under Sessions): an admin hides an abusive comment with a reason. */
export function AdminReviewsPanel() {
  const queryClient = useQueryClient();
  const reviews = useQuery({ queryKey: reviewKeys.admin, queryFn: reviewsApi.adminReviews });
  const [hiding, setHiding] = useState<Review | null>(null);
  const hide = useMutation({
    mutationFn: ({ sessionId, reason }: { sessionId: string; reason: string }) => reviewsApi.hide(sessionId, reason),
    onSuccess: () => {
      toast({ title: 'Comment hidden', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      setHiding(null);
    },
    onError: (error) => toast({ title: 'Error', description: errorMessage(error, 'Please try again.'), variant: 'destructive' }),
  });
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const list = reviews.data ?? [];
  return (
    <section aria-labelledby="admin-reviews-heading" className="mt-8 grid gap-3">
      <div>
        <h2 id="admin-reviews-heading" className="text-lg font-semibold text-slate-900">
          Latest reviews
        </h2>
        <p className="text-sm text-slate-600">
          Families’ ratings of completed sessions. Hide a comment that is abusive; the reason is recorded.
        </p>
      </div>
      {reviews.isPending ? (
        <p className="text-sm text-slate-600">Loading reviews...</p>
      ) : reviews.isError ? (
        <p className="text-sm text-destructive-text">Reviews could not be loaded.</p>
      ) : list.length === 0 ? (
        <p className="text-sm text-slate-600">No reviews yet.</p>
      ) : (
        <ul className="grid gap-3 md:grid-cols-2">
          {list.map((r) => (
            <ReviewItem
              key={r.sessionId}
              review={r}
              zone={zone}
              action={
                <div className="mt-2 flex items-center justify-between gap-2 text-xs text-slate-500">
                  <span>Tutor: {r.tutorName ?? 'Unknown'}</span>
                  {r.comment && !r.hidden ? (
                    <Button type="button" size="sm" variant="outline" onClick={() => setHiding(r)}>
                      <EyeOff className="size-4" aria-hidden="true" />
                      Hide comment
                    </Button>
                  ) : null}
                </div>
              }
            />
          ))}
        </ul>
      )}
      <ReasonDialog
        open={hiding !== null}
        onOpenChange={(open) => !open && setHiding(null)}
        title="Hide this comment?"
        description="The tutor and families will no longer see it; the rating still counts. The reason is recorded with your name."
        reasonLabel="Reason"
        confirmLabel="Hide comment"
        pendingLabel="Hiding..."
        pending={hide.isPending}
        destructive
        onConfirm={(reason) => hiding && hide.mutate({ sessionId: hiding.sessionId, reason })}
      />
    </section>
  );
}
