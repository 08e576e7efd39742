/**
 * The entity kinds whose history the operations console opens (issue 12 §6). Each names one
 * aggregate's stream; `kind:id` in the console's `?history=` search opens that entity's timeline.
 */
export const entityKinds = ['user', 'student', 'tutor', 'application', 'course', 'purchase', 'session', 'promo', 'payoutPeriod'] as const;
export type EntityKind = (typeof entityKinds)[number];

export const entityKindLabels: Record<EntityKind, string> = {
  user: 'User',
  student: 'Student',
  tutor: 'Tutor',
  application: 'Tutor application',
  course: 'Course',
  purchase: 'Purchase',
  session: 'Session',
  promo: 'Promo code',
  payoutPeriod: 'Payout period',
};

export const isEntityKind = (value: unknown): value is EntityKind =>
  typeof value === 'string' && (entityKinds as readonly string[]).includes(value);

/** `kind:id` as the console's search carries it; ids are opaque but short and plain. */
export function parseEntityRef(value: unknown): { kind: EntityKind; id: string } | null {
  if (typeof value !== 'string' || value.length > 200) return null;
  const at = value.indexOf(':');
  const kind = value.slice(0, at);
  const id = value.slice(at + 1);
  return at > 0 && isEntityKind(kind) && /^[A-Za-z0-9._:@-]{1,160}$/.test(id) ? { kind, id } : null;
}
