import type { Projector } from '../runner/projector.ts';
import { alertsProjector } from './alerts/alertsProjector.ts';
import { auditLogProjector } from './auditLog/auditLogProjector.ts';

/** The operations feature's read models: the audit log of every event, and the alerts an admin acts on. */
export const operationsProjections = [auditLogProjector, alertsProjector] as const satisfies readonly Projector[];
