import type { CalendarStatusAnswer } from '@shared/tutors/tutorApi.ts';
import { useQuery } from '@tanstack/react-query';
import { CalendarCheck2, CalendarX2, Info, KeyRound } from 'lucide-react';
import { serverMessage } from '../../app/api.ts';
import { LoadError } from '../../components/LoadError.tsx';
import { Loading } from '../../components/parts.tsx';
import { Alert, AlertDescription, AlertTitle } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { tutorKeys, tutorsApi } from './api.ts';

/** Spec part 2 §9: calendar status polls every 30 seconds. */
export const CALENDAR_POLL_MS = 30_000;

/** The full navigation that asks Google again for offline calendar access. */
export const REAUTHORISE_URL = '/api/auth/google?userType=tutor&prompt=consent&access_type=offline';

export function useCalendarStatus(tutorId: string | undefined) {
  return useQuery({
    queryKey: tutorKeys.calendarStatus(tutorId ?? ''),
    queryFn: () => tutorsApi.calendarStatus(tutorId ?? ''),
    enabled: tutorId !== undefined,
    refetchInterval: CALENDAR_POLL_MS,
  });
}

/** The banner asking the tutor to sign in with Google again when the token is expired, missing or revoked. */
export function ReauthoriseBanner({ status }: { status: CalendarStatusAnswer }) {
  if (!status.needsReauthorisation) return null;
  return (
    <Alert variant="destructive">
      <KeyRound aria-hidden="true" />
      <AlertTitle>Reconnect your Google Calendar</AlertTitle>
      <AlertDescription>
        <p>
          Topmark can no longer reach your calendar: your Google authorisation expired or was removed. Students cannot book you until you
          reconnect.
        </p>
        <Button className="mt-3" size="sm" onClick={() => window.location.assign(REAUTHORISE_URL)}>
          Re-authorise Google
        </Button>
      </AlertDescription>
    </Alert>
  );
}

/** How to share a Google calendar with Topmark (the service account, when configured). */
function ShareInstructions({ status }: { status: CalendarStatusAnswer }) {
  return (
    <ol className="mt-2 list-decimal space-y-1 pl-5">
      <li>Open Google Calendar on a computer and find your calendar under "My calendars".</li>
      <li>Choose "Settings and sharing", then "Share with specific people or groups".</li>
      {status.serviceAccountEmail ? (
        <li>
          Add <strong className="break-all">{status.serviceAccountEmail}</strong> with the permission "Make changes to events".
        </li>
      ) : (
        <li>Or sign in with Google again and allow calendar access when asked.</li>
      )}
    </ol>
  );
}

/** Connected, or not connected with the share instructions; the sandbox says the built-in calendar is in use. */
export function CalendarStatusBanner({ status }: { status: CalendarStatusAnswer }) {
  if (status.isConnected) {
    return (
      <Alert variant="success" data-testid="calendar-status">
        <CalendarCheck2 aria-hidden="true" />
        <AlertTitle>Calendar connected</AlertTitle>
        <AlertDescription>
          {status.provider === 'sandbox' ? (
            <p>
              Topmark's built-in calendar is in use (Google Calendar is not configured on this server). Your hours and bookings are kept
              there.
            </p>
          ) : (
            <p>Topmark can read and write {status.email ? <strong className="break-all">{status.email}</strong> : 'your calendar'}.</p>
          )}
          <p className="mt-1">
            {status.hasAvailability ? 'Your Topmark Hours are set.' : 'Add your weekly hours so students can book you.'}
          </p>
        </AlertDescription>
      </Alert>
    );
  }
  return (
    <Alert data-testid="calendar-status">
      <CalendarX2 aria-hidden="true" />
      <AlertTitle>Calendar not connected</AlertTitle>
      <AlertDescription>
        <p>Students can only book times Topmark can see in your calendar. Share your Google Calendar with Topmark:</p>
        <ShareInstructions status={status} />
      </AlertDescription>
    </Alert>
  );
}

/** The calendar status of a tutor with loading and error states. */
export function CalendarStatusSection({ tutorId }: { tutorId: string }) {
  const status = useCalendarStatus(tutorId);
  if (status.isPending) return <Loading label="Checking your calendar..." />;
  if (status.isError) {
    return (
      <LoadError
        title="Could not check your calendar"
        message={serverMessage(status.error, 'Please try again.')}
        onRetry={() => void status.refetch()}
        retrying={status.isRefetching}
      />
    );
  }
  return (
    <div className="grid gap-3">
      <ReauthoriseBanner status={status.data} />
      <CalendarStatusBanner status={status.data} />
    </div>
  );
}

/** What Topmark Hours are and how students see them (spec part 2 §1, §2). */
export function AvailabilityInstructions() {
  return (
    <Alert>
      <Info aria-hidden="true" />
      <AlertTitle>How availability works</AlertTitle>
      <AlertDescription>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>
            Your bookable time is the recurring events named <strong>"Topmark Hours"</strong> in your calendar. Saving your weekly hours
            here creates them; you can also create them in your calendar yourself, or change and cancel single days there.
          </li>
          <li>Students see your Topmark Hours as 1-hour slots.</li>
          <li>Any other event in your calendar blocks that time, so a busy afternoon is never offered.</li>
        </ul>
      </AlertDescription>
    </Alert>
  );
}
