import type { Position } from '../../adapters/eventstore/eventStore.ts';
import type { HoursAndBusy } from '../../domain/calendar/calendarHours.ts';
import type { CourseStatus } from '../../domain/courses/course.ts';
import type { CommandContext } from '../kit/commandContext.ts';

/**
 * What the sessions feature needs of other features, passed in by the composition (the HTTP
 * routes): the course ledger's commands (`ReserveCredit` … keyed by session id), the tutor's
 * facts, and what the tutor's calendar says about their time. Commands of one feature never import another's.
 */

export interface CourseFacts {
  exists: boolean;
  studentId: string | null;
  subjectId: string | null;
  tutorId: string | null;
  status: CourseStatus;
  sessionsRemaining: number;
}

export interface CourseLedger {
  /** The course as its stream says (owner, subject, tutor, status, free credits). */
  course(courseId: string): Promise<CourseFacts>;
  /** Reserves a credit for the session (`ReserveCredit`); `alreadyHandled` when this command id was seen before. */
  reserve(courseId: string, sessionId: string, ctx: CommandContext): Promise<{ alreadyHandled: boolean }>;
  /** Whether the session holds (or has used) a credit of the course now, as its stream says. */
  holds(courseId: string, sessionId: string): Promise<boolean>;
  /** The settlements answer the position of what they appended (null: already settled), for read-your-writes. */
  release(courseId: string, sessionId: string, ctx: CommandContext): Promise<{ position: Position | null }>;
  consume(courseId: string, sessionId: string, ctx: CommandContext): Promise<{ position: Position | null }>;
  forfeit(courseId: string, sessionId: string, ctx: CommandContext): Promise<{ position: Position | null }>;
}

export interface TutorFacts {
  exists: boolean;
  /** The tutor's zone (null: never set, the default applies): all-day events and the 30-day horizon are read in it. */
  timeZone: string | null;
}

export interface SessionPorts {
  courses: CourseLedger;
  tutor(tutorId: string): Promise<TutorFacts>;
  /**
   * The "Topmark Hours" instances and busy time of the tutor's calendar that overlap [from, to)
   * (a snapshot: see `calendarSnapshots.ts`); throws when the calendar cannot be read.
   */
  calendarTime(tutorId: string, from: string, to: string): Promise<HoursAndBusy>;
}
