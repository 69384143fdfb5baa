import { useQuery } from '@tanstack/react-query';
import { AlertCircle, MapPinOff, Plus, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type { ShippingAddress } from '@contracts/addresses';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import {
  addressesQueryOptions,
  useAddAddressMutation,
  useDeleteAddressMutation,
  useSetDefaultAddressMutation,
  useSyncAddressesMutation,
  useUpdateAddressMutation,
} from '../api';
import { AddressCard } from './address-card';
import { AddressForm } from './address-form';

/** Settings → Address Book (SPEC.md §2): the cards, Sync, the Add and Edit dialogs, Set as Default, delete. */
export function AddressBook() {
  const addresses = useQuery(addressesQueryOptions);
  const add = useAddAddressMutation();
  const update = useUpdateAddressMutation();
  const remove = useDeleteAddressMutation();
  const setDefault = useSetDefaultAddressMutation();
  const sync = useSyncAddressesMutation();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<ShippingAddress | null>(null);
  const [deleting, setDeleting] = useState<ShippingAddress | null>(null);
  const busy = update.isPending || remove.isPending || setDefault.isPending;

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle as="h2">Address Book</CardTitle>
          <CardDescription>Where we send your graded cards back to</CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" disabled={sync.isPending} onClick={() => sync.mutate()}>
            <RefreshCw className={sync.isPending ? 'animate-spin' : undefined} aria-hidden />
            {sync.isPending ? 'Syncing...' : 'Sync from AGSCard'}
          </Button>
          <Button onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add Address
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {addresses.isPending ? (
          <div className="flex items-center justify-center gap-3 py-12 text-muted-foreground">
            <Spinner className="size-5" label="Loading address book" />
            <span>Loading address book...</span>
          </div>
        ) : addresses.isError ? (
          <div role="alert" className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm">
            <AlertCircle className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
            <div>
              <p className="font-semibold">Error Loading Addresses</p>
              <p>Failed to load address book. Please try again later.</p>
            </div>
          </div>
        ) : addresses.data.length === 0 ? (
          <div className="flex flex-col items-center gap-3 py-12 text-center">
            <MapPinOff className="size-10 text-muted-foreground" aria-hidden />
            <p className="font-semibold">No addresses found</p>
            <p className="text-sm text-muted-foreground">Add an address to send cards for professional grading.</p>
          </div>
        ) : (
          <div role="list" aria-label="Addresses" className="grid gap-4 md:grid-cols-2">
            {addresses.data.map((address) => (
              <AddressCard
                key={address.id}
                address={address}
                busy={busy}
                onEdit={() => setEditing(address)}
                onDelete={() => setDeleting(address)}
                onSetDefault={() => setDefault.mutate(address.id)}
              />
            ))}
          </div>
        )}
      </CardContent>

      <Dialog open={adding} onOpenChange={setAdding}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Add Address</DialogTitle>
            <DialogDescription>A new shipping address for your orders.</DialogDescription>
          </DialogHeader>
          <AddressForm
            idPrefix="add-address"
            pending={add.isPending}
            submitLabel="Save Address"
            onCancel={() => setAdding(false)}
            onSubmit={(input) => add.mutate(input, { onSuccess: () => setAdding(false) })}
          />
        </DialogContent>
      </Dialog>

      <Dialog open={editing !== null} onOpenChange={(open) => !open && setEditing(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Edit Address</DialogTitle>
            <DialogDescription>Changes apply to orders placed from now on.</DialogDescription>
          </DialogHeader>
          {editing ? (
            <AddressForm
              key={editing.id}
              idPrefix="edit-address"
              address={editing}
              pending={update.isPending}
              submitLabel="Update Address"
              onCancel={() => setEditing(null)}
              onSubmit={(input) => update.mutate({ id: editing.id, input }, { onSuccess: () => setEditing(null) })}
            />
          ) : null}
        </DialogContent>
      </Dialog>

      <AlertDialog open={deleting !== null} onOpenChange={(open) => !open && setDeleting(null)}>
        <AlertDialogContent>
          <AlertDialogHeader>
            <AlertDialogTitle>Delete this address?</AlertDialogTitle>
            <AlertDialogDescription>
              {deleting ? `${deleting.fullName}, ${deleting.addressLine1}, ${deleting.city} will be removed from your address book.` : null}
              {deleting?.isDefault ? ' Another address will become your default.' : null}
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={() => deleting && remove.mutate(deleting.id)}>Delete</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </Card>
  );
}
