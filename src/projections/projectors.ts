import { studentsProjector } from './accounts/studentsProjector.ts';
import { tutorApplicationsProjector } from './accounts/tutorApplicationsProjector.ts';
import { usersProjector } from './accounts/usersProjector.ts';
import { alertsProjector } from './alerts/alertsProjector.ts';
import { auditLogProjector } from './auditLog/auditLogProjector.ts';
import { contactMessagesProjector } from './contact/contactMessagesProjector.ts';
import type { Projector } from './runner/projector.ts';

/** Every read model, in the order they are set up. */
export const projectors: readonly Projector[] = [
  auditLogProjector,
  alertsProjector,
  contactMessagesProjector,
  usersProjector,
  studentsProjector,
  tutorApplicationsProjector,
];
