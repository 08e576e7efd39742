import { Construction } from 'lucide-react';
import type { AdminTabId } from './tabs.ts';

/** What each tab of a later issue will hold, and the issue it comes with. */
const LATER: Record<
  Exclude<AdminTabId, 'overview' | 'applications' | 'create-tutor' | 'promo-codes' | 'alerts'>,
  { title: string; text: string }
> = {
  sessions: {
    title: 'Sessions arrive with booking',
    text: 'Once families can book, every session appears here with search, filters and its history.',
  },
  purchases: {
    title: 'Purchases arrive with checkout',
    text: 'Once packages can be bought, every purchase appears here with its credits, promo code and refunds.',
  },
  payouts: {
    title: 'Payouts arrive with the operations console',
    text: 'Tutor payouts per billing period (1st-15th and 16th-end of month), their approval and CSV export come with the console.',
  },
  users: {
    title: 'User management arrives with the operations console',
    text: 'The list of every account, with search and deactivation, comes with the console.',
  },
  'audit-log': {
    title: 'The audit log arrives with the operations console',
    text: 'Who did what, when and to which record, with filters and CSV export, comes with the console.',
  },
};

/** A tab whose interface comes with a later issue: says so plainly. */
export function LaterTab({ tab }: { tab: keyof typeof LATER }) {
  const { title, text } = LATER[tab];
  return (
    <section
      aria-labelledby="later-title"
      className="flex flex-col items-center rounded-[var(--radius-card)] border border-dashed border-slate-300 bg-white px-6 py-14 text-center"
    >
      <Construction className="size-10 text-slate-400" aria-hidden="true" />
      <h2 id="later-title" className="mt-4 text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-2 max-w-md text-sm text-slate-600">{text}</p>
    </section>
  );
}
