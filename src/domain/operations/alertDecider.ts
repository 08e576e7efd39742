import { type Command, type Decider, DomainError, decideWith } from '../kit/decider.ts';
import { type AlertEvent, type AlertState, evolveAlert, initialAlertState, RESOLUTION_NOTE_MAX } from './alert.ts';

export const ALERT_NOT_FOUND = 'Alert not found';
export const ALERT_ALREADY_RESOLVED = 'This alert is already resolved';
export const RESOLUTION_NOTE_REQUIRED = 'Please say what was done to resolve this alert';
export const RESOLUTION_NOTE_TOO_LONG = `The note can be at most ${RESOLUTION_NOTE_MAX} characters`;

/**
 * `raised`: the alert as the alerts read model knows it (null when unknown); an alert the system
 * closed itself (a tutor who authorised Google again) is already resolved there, not on this stream.
 */
export type AlertCommand = Command<'ResolveAlert', { alertId: string; note: string; raised: { resolved: boolean } | null }>;

export const decideAlert = decideWith<AlertCommand, AlertEvent, AlertState>({
  ResolveAlert: ({ data, metadata: { now, actorId } }, state) => {
    if (!data.raised) throw new DomainError(ALERT_NOT_FOUND, 'not_found');
    if (state.resolved || data.raised.resolved) throw new DomainError(ALERT_ALREADY_RESOLVED, 'conflict');
    const note = data.note.trim();
    if (!note) throw new DomainError(RESOLUTION_NOTE_REQUIRED, 'invalid');
    if (note.length > RESOLUTION_NOTE_MAX) throw new DomainError(RESOLUTION_NOTE_TOO_LONG, 'invalid');
    return [{ type: 'AlertResolved', data: { alertId: data.alertId, note, resolvedBy: actorId ?? 'system', at: now.toISOString() } }];
  },
});

export const alertDecider: Decider<AlertCommand, AlertEvent, AlertState> = {
  initialState: initialAlertState,
  evolve: evolveAlert,
  decide: decideAlert,
};
