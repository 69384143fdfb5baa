import { useQuery } from '@tanstack/react-query';
import { ExternalLink, RefreshCw } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { Quote } from '@contracts/orders';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { toast } from '@/components/ui/use-toast';
import { addressesQueryOptions, useAddAddressMutation } from '@/features/addresses/api';
import { AddressLines } from '@/features/addresses/components/address-card';
import { AddressForm } from '@/features/addresses/components/address-form';
import { formatUsd } from '../money';
import type { WizardState } from '../wizard-state';
import { RadioCard } from './radio-card';

/** Step 3: where the card comes back to (existing or new address), insurance and signature. */
export function ShippingStep({ state, update, quote }: { state: WizardState; update: (change: Partial<WizardState>) => void; quote: Quote | undefined }) {
  const addresses = useQuery(addressesQueryOptions);
  const add = useAddAddressMutation();
  const [tab, setTab] = useState<'existing' | 'new'>('existing');

  useEffect(() => {
    if (addresses.isError) toast({ title: 'Connection Error', description: 'Error loading shipping addresses. Please try again later.', variant: 'destructive' });
  }, [addresses.isError]);

  // The default address, else the first, unless one still in the book is chosen.
  const list = addresses.data;
  useEffect(() => {
    if (!list || list.length === 0) return;
    if (state.shippingAddressId && list.some((a) => a.id === state.shippingAddressId)) return;
    update({ shippingAddressId: (list.find((a) => a.isDefault) ?? list[0])!.id });
  }, [list, state.shippingAddressId, update]);

  const signaturePrice = quote?.options.find((o) => o.code === 'signature');
  return (
    <div className="grid gap-6">
      <Tabs value={tab} onValueChange={(value) => setTab(value as 'existing' | 'new')}>
        <TabsList>
          <TabsTrigger value="existing">Saved addresses</TabsTrigger>
          <TabsTrigger value="new">New address</TabsTrigger>
        </TabsList>
        <TabsContent value="existing">
          {addresses.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : addresses.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Error loading shipping addresses. Please try again later.
            </p>
          ) : addresses.data.length === 0 ? (
            <div className="grid gap-3 rounded-lg border p-4">
              <p className="font-semibold">No Addresses Found</p>
              <p className="text-sm text-muted-foreground">Add an address in a new tab, then refresh here, or use the New address tab.</p>
              <div className="flex flex-wrap gap-2">
                <Button variant="outline" asChild>
                  <a href="/settings?tab=addresses" target="_blank" rel="noreferrer">
                    <ExternalLink aria-hidden />
                    Add an address
                  </a>
                </Button>
                <Button variant="ghost" onClick={() => void addresses.refetch()}>
                  <RefreshCw aria-hidden />
                  Refresh
                </Button>
              </div>
            </div>
          ) : (
            <fieldset className="grid gap-3">
              <legend className="sr-only">Shipping address</legend>
              {addresses.data.map((address) => {
                return (
                  <RadioCard
                    key={address.id}
                    name="shipping-address"
                    value={address.id}
                    selected={state.shippingAddressId === address.id}
                    onSelect={() => update({ shippingAddressId: address.id })}
                    label={`${address.fullName}, ${address.addressLine1}, ${address.city}`}
                    align="start"
                  >
                    <span className="grid flex-1 gap-1">
                      {address.isDefault ? (
                        <Badge variant="accent" className="w-fit">
                          Default
                        </Badge>
                      ) : null}
                      <AddressLines address={address} />
                    </span>
                  </RadioCard>
                );
              })}
            </fieldset>
          )}
        </TabsContent>
        <TabsContent value="new">
          <AddressForm
            idPrefix="wizard-address"
            pending={add.isPending}
            submitLabel="Save and Use Address"
            onSubmit={(input) =>
              add.mutate(input, {
                onSuccess: (created) => {
                  update({ shippingAddressId: created.id });
                  setTab('existing');
                },
              })
            }
          />
        </TabsContent>
      </Tabs>

      <fieldset className="grid gap-3">
        <legend className="mb-2 font-semibold">Protection</legend>
        <div className="flex items-start gap-3 rounded-lg border p-4">
          <Checkbox
            id="wizard-insurance"
            className="mt-0.5"
            checked={Boolean(quote?.insuranceRequired) || state.shippingInsurance}
            disabled={Boolean(quote?.insuranceRequired)}
            onCheckedChange={(checked) => update({ shippingInsurance: checked === true })}
            aria-describedby="wizard-insurance-hint"
          />
          <div className="grid gap-1">
            <Label htmlFor="wizard-insurance" className="flex flex-wrap items-center gap-2">
              Shipping Insurance (2% of declared value)
              {quote?.insuranceRequired ? <Badge variant="destructive">Required</Badge> : <Badge variant="accent">Recommended</Badge>}
            </Label>
            <p id="wizard-insurance-hint" className="text-sm text-muted-foreground">
              {quote?.insuranceRequired ? 'Required for orders over $500 declared.' : 'Recommended; required for orders over $500 declared.'}{' '}
              {quote ? `Declared value ${formatUsd(quote.totalDeclaredValue)}.` : null}
            </p>
          </div>
        </div>
        <div className="flex items-start justify-between gap-4 rounded-lg border p-4">
          <div className="grid gap-1">
            <Label htmlFor="wizard-signature" className="flex flex-wrap items-center gap-2">
              Signature Required {signaturePrice ? <span className="font-normal text-muted-foreground">(+{formatUsd(signaturePrice.amount)})</span> : null}
              {quote?.signatureRecommended ? <Badge variant="accent">Recommended</Badge> : null}
            </Label>
            <p className="text-sm text-muted-foreground">Someone signs for the package on delivery. Recommended for orders over $200.</p>
          </div>
          <Switch id="wizard-signature" checked={state.requireSignature} onCheckedChange={(checked) => update({ requireSignature: checked })} />
        </div>
      </fieldset>
    </div>
  );
}
