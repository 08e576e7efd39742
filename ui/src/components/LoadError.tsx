import { CircleAlert, RotateCw } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';

/** A failed read with the spec's words (or ours) and a way forward. */
export function LoadError({
  title,
  message,
  onRetry,
  retrying,
}: {
  title: string;
  message?: string | undefined;
  onRetry?: () => void;
  retrying?: boolean;
}) {
  return (
    <Alert variant="destructive">
      <CircleAlert aria-hidden="true" />
      <AlertTitle>{title}</AlertTitle>
      <AlertDescription>
        <p>{message ?? 'The server did not answer as expected. Check your connection and try again.'}</p>
        {onRetry ? (
          <Button variant="outline" size="sm" className="mt-3" disabled={retrying} onClick={onRetry}>
            <RotateCw className={retrying ? 'animate-spin' : undefined} aria-hidden="true" />
            {retrying ? 'Retrying...' : 'Try again'}
          </Button>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
