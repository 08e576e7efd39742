import type { LucideIcon } from 'lucide-react';
import { Card, CardContent, CardDescription, CardTitle } from '../ui/card.tsx';

export interface IconCard {
  icon: LucideIcon;
  title: string;
  body: string;
}

/** Four-up cards with an icon, a title and a sentence: features, values. */
export function IconCardGrid({ items }: { items: readonly IconCard[] }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
      {items.map(({ icon: Icon, title, body }) => (
        <li key={title}>
          <Card className="h-full">
            <CardContent>
              <span className="inline-flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                <Icon className="size-6" aria-hidden="true" />
              </span>
              <CardTitle className="mt-5">{title}</CardTitle>
              <CardDescription className="mt-2 leading-relaxed">{body}</CardDescription>
            </CardContent>
          </Card>
        </li>
      ))}
    </ul>
  );
}
