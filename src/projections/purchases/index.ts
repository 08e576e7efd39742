import type { Projector } from '../runner/projector.ts';
import { purchasesProjector } from './purchasesProjector.ts';

/** The purchases feature's read models. */
export const purchaseProjections = [purchasesProjector] as const satisfies readonly Projector[];
