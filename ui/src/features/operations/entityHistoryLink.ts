import type { EntityKind } from '@shared/operations/entityKinds.ts';
import { useNavigate, useSearch } from '@tanstack/react-router';

/** Opens an entity's history over the current console tab (`?history=kind:id`); back closes it. */
export function useOpenEntityHistory(): (kind: EntityKind, id: string) => void {
  const navigate = useNavigate();
  const { tab, page } = useSearch({ from: '/admin' });
  return (kind, id) =>
    void navigate({ to: '/admin', search: { ...(tab ? { tab } : {}), ...(page ? { page } : {}), history: `${kind}:${id}` } });
}
