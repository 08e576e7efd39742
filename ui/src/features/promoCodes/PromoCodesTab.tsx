import { zodResolver } from '@hookform/resolvers/zod';
import { type PromoCode, type PromoCodeFormValues, promoCodeFormSchema, toPromoCodeBody } from '@shared/promoCodes/promoCodeApi.ts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Pencil, Plus, Receipt, TicketPercent } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../app/api.ts';
import { shortDate } from '../../components/console/format.ts';
import { checkboxClasses, FieldMessage, fieldA11y, selectClasses } from '../../components/FieldMessage.tsx';
import { LoadError } from '../../components/LoadError.tsx';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Textarea } from '../../components/ui/textarea.tsx';
import { toast } from '../../components/ui/use-toast.ts';
import { promoCodesApi } from './api.ts';
import { discountLabel, formValuesOf, usesLabel } from './promoFormat.ts';

/** Promo Codes (spec part 2 §2, §5, §8): cards, the create and edit forms, the redemptions panel. */
export function PromoCodesTab() {
  const codes = useQuery({ queryKey: promoCodesApi.listKey, queryFn: promoCodesApi.list });
  /** The form: null closed, 'new' to create, a code to edit. */
  const [editing, setEditing] = useState<PromoCode | 'new' | null>(null);
  const [selected, setSelected] = useState<PromoCode | null>(null);

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-lg font-semibold text-slate-900">Promo codes</h2>
        <Button onClick={() => setEditing('new')}>
          <Plus aria-hidden="true" />
          Create promo code
        </Button>
      </div>
      {codes.isPending ? (
        <div className="grid gap-4 md:grid-cols-2" aria-busy="true">
          <span className="sr-only">Loading promo codes</span>
          {[0, 1].map((i) => (
            <div key={i} className="h-40 animate-pulse rounded-[var(--radius-card)] bg-slate-100" />
          ))}
        </div>
      ) : codes.isError ? (
        <LoadError
          title="The promo codes could not be loaded"
          message={errorMessage(codes.error, 'The server did not answer as expected.')}
          onRetry={() => void codes.refetch()}
          retrying={codes.isFetching}
        />
      ) : codes.data.length === 0 ? (
        <div className="flex flex-col items-center rounded-[var(--radius-card)] border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <TicketPercent className="size-9 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-medium text-slate-900">No promo codes yet</p>
          <p className="mt-1 text-sm text-slate-600">Create one to offer families a discount at checkout.</p>
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {codes.data.map((promo) => (
            <PromoCard
              key={promo.id}
              promo={promo}
              selected={selected?.id === promo.id}
              onEdit={() => setEditing(promo)}
              onRedemptions={() => setSelected(selected?.id === promo.id ? null : promo)}
            />
          ))}
        </ul>
      )}
      {selected && <RedemptionsPanel promo={selected} />}
      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
          <DialogHeader>
            <DialogTitle>{editing === 'new' ? 'Create promo code' : 'Edit promo code'}</DialogTitle>
            <DialogDescription>Codes are stored in capitals; customers can type them in any case.</DialogDescription>
          </DialogHeader>
          {editing !== null && (
            <PromoCodeForm
              key={editing === 'new' ? 'new' : editing.id}
              promo={editing === 'new' ? null : editing}
              onDone={() => setEditing(null)}
            />
          )}
        </DialogContent>
      </Dialog>
    </div>
  );
}

function PromoCard({
  promo,
  selected,
  onEdit,
  onRedemptions,
}: {
  promo: PromoCode;
  selected: boolean;
  onEdit: () => void;
  onRedemptions: () => void;
}) {
  return (
    <li
      className="flex flex-col gap-3 rounded-[var(--radius-card)] border border-border bg-white p-5 shadow-sm"
      data-testid="promo-card"
      aria-label={`Promo code ${promo.code}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-mono text-lg font-semibold tracking-wide break-all text-slate-900">{promo.code}</h3>
        {promo.isActive ? <Badge variant="success">Active</Badge> : <Badge variant="secondary">Inactive</Badge>}
      </div>
      {promo.description && <p className="text-sm text-slate-600">{promo.description}</p>}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Discount</dt>
        <dd className="font-medium text-slate-900">{discountLabel(promo)}</dd>
        <dt className="text-slate-500">Uses</dt>
        <dd className="font-medium text-slate-900">{usesLabel(promo)}</dd>
        {promo.validUntil && (
          <>
            <dt className="text-slate-500">Expires</dt>
            <dd className="font-medium text-slate-900">
              <time dateTime={promo.validUntil}>{shortDate(promo.validUntil)}</time>
            </dd>
          </>
        )}
      </dl>
      <div className="mt-auto flex flex-wrap gap-2 pt-1">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${promo.code}`}>
          <Pencil aria-hidden="true" />
          Edit
        </Button>
        <Button variant={selected ? 'secondary' : 'outline'} size="sm" onClick={onRedemptions} aria-pressed={selected}>
          <Receipt aria-hidden="true" />
          {selected ? 'Hide redemptions' : 'View redemptions'}
        </Button>
      </div>
    </li>
  );
}

function RedemptionsPanel({ promo }: { promo: PromoCode }) {
  const redemptions = useQuery({ queryKey: promoCodesApi.redemptionsKey, queryFn: promoCodesApi.redemptions });
  const mine = redemptions.data?.filter((r) => r.promoCodeId === promo.id) ?? [];
  return (
    <section aria-labelledby="redemptions-heading" className="rounded-[var(--radius-card)] border border-border bg-white shadow-sm">
      <h2 id="redemptions-heading" className="border-b border-border px-5 py-4 text-lg font-semibold text-slate-900">
        Redemptions of <span className="font-mono">{promo.code}</span>
      </h2>
      {redemptions.isPending ? (
        <p className="p-5 text-sm text-slate-600" aria-busy="true">
          Loading redemptions...
        </p>
      ) : redemptions.isError ? (
        <p className="p-5 text-sm text-destructive-text">{errorMessage(redemptions.error, 'The redemptions could not be loaded.')}</p>
      ) : mine.length === 0 ? (
        <p className="p-5 text-sm text-slate-600">No redemptions yet.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">
                User
              </th>
              <th scope="col" className="px-5 py-2 font-medium">
                Discount
              </th>
              <th scope="col" className="px-5 py-2 font-medium">
                Redeemed
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {mine.map((r) => (
              <tr key={r.id}>
                <td className="px-5 py-2 font-mono text-xs break-all">{r.userId}</td>
                <td className="px-5 py-2">${r.discountAmount.toFixed(2)}</td>
                <td className="px-5 py-2">
                  <time dateTime={r.redeemedAt}>{shortDate(r.redeemedAt)}</time>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function PromoCodeForm({ promo, onDone }: { promo: PromoCode | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<PromoCodeFormValues>({ resolver: zodResolver(promoCodeFormSchema), defaultValues: formValuesOf(promo) });
  const creating = promo === null;
  const save = useMutation({
    mutationFn: (values: PromoCodeFormValues) =>
      promo ? promoCodesApi.update(promo.id, toPromoCodeBody(values)) : promoCodesApi.create(toPromoCodeBody(values)),
    onSuccess: () => {
      toast({ title: creating ? 'Promo code created successfully' : 'Promo code updated successfully', variant: 'success' });
      void queryClient.invalidateQueries({ queryKey: promoCodesApi.listKey });
      onDone();
    },
    onError: (error) => {
      const message = errorMessage(error, 'Please try again.');
      toast({
        title: 'Error',
        description: creating ? `Failed to create promo code: ${message}` : `Failed to update promo code: ${message}`,
        variant: 'destructive',
      });
    },
  });
  const percentage = watch('discountType') === 'percentage';
  const pending = save.isPending;

  return (
    <form noValidate className="grid gap-4" onSubmit={(event) => void handleSubmit((values) => !pending && save.mutate(values))(event)}>
      <div className="space-y-1.5">
        <Label htmlFor="promo-code">Code</Label>
        <Input
          id="promo-code"
          autoComplete="off"
          className="font-mono uppercase"
          {...fieldA11y('promo-code', errors.code)}
          {...register('code')}
        />
        <FieldMessage id="promo-code-error" error={errors.code} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="promo-description">Description (optional)</Label>
        <Textarea id="promo-description" rows={2} {...fieldA11y('promo-description', errors.description)} {...register('description')} />
        <FieldMessage id="promo-description-error" error={errors.description} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="promo-type">Discount type</Label>
          <select id="promo-type" className={selectClasses} {...register('discountType')}>
            <option value="percentage">Percentage</option>
            <option value="fixed_amount">Fixed amount ($)</option>
          </select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="promo-value">{percentage ? 'Discount (%)' : 'Discount ($)'}</Label>
          <Input
            id="promo-value"
            type="number"
            inputMode="decimal"
            min={0.01}
            step={percentage ? 1 : 0.01}
            {...fieldA11y('promo-value', errors.discountValue)}
            {...register('discountValue')}
          />
          <FieldMessage id="promo-value-error" error={errors.discountValue} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="promo-max-uses">Max uses (empty for unlimited)</Label>
          <Input
            id="promo-max-uses"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="Unlimited"
            {...fieldA11y('promo-max-uses', errors.maxUses)}
            {...register('maxUses')}
          />
          <FieldMessage id="promo-max-uses-error" error={errors.maxUses} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="promo-max-uses-per-person">Uses per person (empty for no limit)</Label>
          <Input
            id="promo-max-uses-per-person"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            placeholder="No limit"
            {...fieldA11y('promo-max-uses-per-person', errors.maxUsesPerPerson)}
            {...register('maxUsesPerPerson')}
          />
          <FieldMessage id="promo-max-uses-per-person-error" error={errors.maxUsesPerPerson} />
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1.5">
          <Label htmlFor="promo-valid-from">Valid from (optional)</Label>
          <Input id="promo-valid-from" type="datetime-local" {...register('validFrom')} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="promo-valid-until">Valid until (optional)</Label>
          <Input id="promo-valid-until" type="datetime-local" {...register('validUntil')} />
        </div>
      </div>
      <div className="flex items-start gap-2">
        <input id="promo-active" type="checkbox" className={checkboxClasses} {...register('isActive')} />
        <Label htmlFor="promo-active">Active</Label>
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onDone} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {pending && <Loader2 className="animate-spin" aria-hidden="true" />}
          {creating ? (pending ? 'Creating...' : 'Create promo code') : pending ? 'Saving...' : 'Save changes'}
        </Button>
      </div>
    </form>
  );
}
