import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { addAddress, editAddress, removeAddress, setDefaultAddress } from '../../commands/addresses/address-book.ts';
import { z } from 'zod';
import { addressInputSchema, addressSyncResultSchema, shippingAddressSchema } from '../../contracts/addresses.ts';
import { addressNotFound } from '../../domain/addresses/index.ts';
import { addressesOf, findAddress } from '../../projections/addresses/queries.ts';
import { routeDocs } from '../route-docs.ts';
import type { RouteOptions } from '../app.ts';
import { commandMetadata, requireUser } from '../plugins/session.ts';

// The address book (SPEC.md §7): the caller's own addresses only. An id that is not one of the caller's
// addresses, another user's included, is a 404 like a missing one.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function addressIdParam(request: FastifyRequest): string {
  const id = (request.params as { id?: unknown }).id;
  if (typeof id !== 'string' || !UUID.test(id)) throw addressNotFound();
  return id.toLowerCase();
}

export const addressRoutes: FastifyPluginAsync<RouteOptions> = async (app, { runtime }) => {
  const { eventStore: store, database, clock, ids, accounts } = runtime;
  const { db } = database;
  const context = (request: FastifyRequest) => ({ store, metadata: commandMetadata(request, clock, ids) });

  async function ownAddress(userId: string, addressId: string) {
    const address = await findAddress(db, userId, addressId);
    if (!address) throw addressNotFound();
    return address;
  }

  app.get('/api/shipping-addresses', { schema: routeDocs({ summary: "The caller's address book", tags: ['addresses'], responses: { 200: z.array(shippingAddressSchema) }, errors: [401] }) }, async (request, reply) => {
    const userId = requireUser(request);
    reply.header('cache-control', 'private, no-store');
    return addressesOf(db, userId);
  });

  app.post('/api/shipping-addresses', { schema: routeDocs({ summary: 'Add an address (the first becomes the default)', tags: ['addresses'], body: addressInputSchema, responses: { 201: shippingAddressSchema }, errors: [400, 401, 409] }, 'POST') }, async (request, reply) => {
    const userId = requireUser(request);
    const { isDefault, ...fields } = addressInputSchema.parse(request.body);
    const addressId = ids.uuid();
    await addAddress(context(request), { userId, addressId, fields, makeDefault: isDefault });
    return reply.status(201).send(await ownAddress(userId, addressId));
  });

  app.put('/api/shipping-addresses/:id', { schema: routeDocs({ summary: 'Edit one of the caller\'s addresses', tags: ['addresses'], params: z.object({ id: z.string() }), body: addressInputSchema, responses: { 200: shippingAddressSchema }, errors: [400, 401, 404] }, 'PUT') }, async (request) => {
    const userId = requireUser(request);
    const addressId = addressIdParam(request);
    const { isDefault, ...fields } = addressInputSchema.parse(request.body);
    await editAddress(context(request), { userId, addressId, fields, makeDefault: isDefault });
    return ownAddress(userId, addressId);
  });

  app.delete('/api/shipping-addresses/:id', { schema: routeDocs({ summary: 'Remove an address (removing the default promotes another)', tags: ['addresses'], params: z.object({ id: z.string() }), responses: { 200: z.object({ message: z.string() }) }, errors: [401, 404] }, 'DELETE') }, async (request) => {
    const userId = requireUser(request);
    await removeAddress(context(request), { userId, addressId: addressIdParam(request) });
    return { message: 'Address Deleted' };
  });

  app.put('/api/shipping-addresses/:id/set-default', { schema: routeDocs({ summary: 'Make an address the default', tags: ['addresses'], params: z.object({ id: z.string() }), responses: { 200: shippingAddressSchema }, errors: [401, 404] }, 'PUT') }, async (request) => {
    const userId = requireUser(request);
    const addressId = addressIdParam(request);
    await setDefaultAddress(context(request), { userId, addressId });
    return ownAddress(userId, addressId);
  });

  // Through the provider port: the built-in provider keeps no addresses elsewhere and says so.
  app.post('/api/sync-ags-addresses', { schema: routeDocs({ summary: 'Copy addresses kept at the provider (the built-in provider has none elsewhere)', tags: ['addresses'], responses: { 200: addressSyncResultSchema }, errors: [401] }, 'POST') }, async (request) => {
    const userId = requireUser(request);
    return accounts.provider.syncAddresses(userId, commandMetadata(request, clock, ids));
  });
};
