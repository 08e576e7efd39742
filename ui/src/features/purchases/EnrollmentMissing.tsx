import { Link } from '@tanstack/react-router';
import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';

/** Spec part 2 §2, §8: the tutor-selection and first-session screens without a saved enrollment. */
export function EnrollmentMissing() {
  return (
    <Alert>
      <CircleAlert aria-hidden="true" />
      <AlertTitle>No enrollment data found</AlertTitle>
      <AlertDescription>
        <p>Please start the enrollment process from your dashboard.</p>
        <Button asChild size="sm" className="mt-3">
          <Link to="/student">Go to dashboard</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}
