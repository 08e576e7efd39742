import type { Projector } from '../runner/projector.ts';
import { contactMessagesProjector } from './contactMessagesProjector.ts';

/** The contact feature's read models. */
export const contactProjections = [contactMessagesProjector] as const satisfies readonly Projector[];
