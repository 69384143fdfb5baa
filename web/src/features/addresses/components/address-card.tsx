import { CheckCircle2, MapPin, Pencil, Star, Trash2 } from 'lucide-react';
import type { ShippingAddress } from '@contracts/addresses';
import { REGIONS, type Country } from '@contracts/regions';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter } from '@/components/ui/card';

export function regionName(country: string, code: string): string {
  return REGIONS[country as Country]?.find((r) => r.code === code)?.name ?? code;
}

/** The lines of an address as a label on an envelope. */
export function AddressLines({ address }: { address: Pick<ShippingAddress, 'fullName' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'zipCode' | 'country'> & { phoneNumber?: string | null } }) {
  return (
    <address className="grid gap-0.5 text-sm not-italic">
      <span className="font-medium">{address.fullName}</span>
      <span>{address.addressLine1}</span>
      {address.addressLine2 ? <span>{address.addressLine2}</span> : null}
      <span>
        {address.city}, {address.state} {address.zipCode}
      </span>
      <span className="text-muted-foreground">{address.country}</span>
      {address.phoneNumber ? <span className="text-muted-foreground">{address.phoneNumber}</span> : null}
    </address>
  );
}

export function AddressCard({
  address,
  busy,
  onEdit,
  onDelete,
  onSetDefault,
}: {
  address: ShippingAddress;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onSetDefault: () => void;
}) {
  return (
    <Card role="listitem" aria-label={`${address.fullName}, ${address.city}`} className={address.isDefault ? 'border-primary/50' : undefined}>
      <CardContent className="grid gap-3 pt-6">
        <div className="flex min-h-6 flex-wrap items-center gap-2">
          <MapPin className="size-4 text-muted-foreground" aria-hidden />
          {address.isDefault ? (
            <Badge variant="default">
              <Star className="size-3" aria-hidden />
              Default
            </Badge>
          ) : null}
          {address.agsAddressId !== null ? (
            <Badge variant="accent">
              <CheckCircle2 className="size-3" aria-hidden />
              AGS Synced
            </Badge>
          ) : null}
        </div>
        <AddressLines address={address} />
      </CardContent>
      <CardFooter className="flex flex-wrap gap-2">
        {!address.isDefault ? (
          <Button variant="outline" size="sm" disabled={busy} onClick={onSetDefault}>
            Set as Default
          </Button>
        ) : null}
        <Button variant="ghost" size="sm" disabled={busy} onClick={onEdit} aria-label={`Edit address of ${address.fullName}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-destructive hover:text-destructive"
          disabled={busy}
          onClick={onDelete}
          aria-label={`Delete address of ${address.fullName}`}
        >
          <Trash2 aria-hidden />
          Delete
        </Button>
      </CardFooter>
    </Card>
  );
}
