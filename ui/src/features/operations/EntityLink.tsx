import { type EntityKind, entityKindLabels } from '@shared/operations/entityKinds.ts';
import { cn } from '../../lib/utils.ts';
import { useOpenEntityHistory } from './entityHistoryLink.ts';

const LINK =
  'max-w-full truncate rounded text-left font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring';

/**
 * A name that opens its entity's history: what staff click instead of reading an id. Without a
 * name it says the kind ("Purchase"); the id stays in the tooltip, one step away.
 */
export function EntityLink({ kind, id, name, className }: { kind: EntityKind; id: string; name?: string | null; className?: string }) {
  const openHistory = useOpenEntityHistory();
  const label = name || entityKindLabels[kind];
  return (
    <button
      type="button"
      title={`${entityKindLabels[kind]} ${id}`}
      onClick={() => openHistory(kind, id)}
      aria-label={`Open the history of ${entityKindLabels[kind].toLowerCase()} ${label}`}
      className={cn(LINK, className)}
    >
      {label}
    </button>
  );
}
