import { z } from 'zod';
import { COUNTRIES, normalisePostalCode, POSTAL_CODE, REGIONS } from './regions.ts';
import { cleanText } from './text.ts';

// The address book (SPEC.md §3 Shipping address, §5 address rules, §7 the address calls), shared by the
// server and the address form. A carrier also needs a ZIP or postal code of the country's shape and a state
// or province from the country's list.

const required = (message: string, max: number) =>
  cleanText('line', z.string({ error: message }).trim().min(1, message).max(max, `Must be at most ${max} characters`));
const optional = (max: number) =>
  cleanText('line', z.string().trim().max(max, `Must be at most ${max} characters`))
    .nullish()
    .transform((v) => (v ? v : null));

export const addressInputSchema = z
  .object({
    fullName: cleanText('name', z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(255, 'Must be at most 255 characters')),
    addressLine1: required('Address line 1 is required', 255),
    addressLine2: optional(255),
    city: required('City is required', 100),
    state: required('State is required', 50),
    zipCode: required('ZIP code is required', 20),
    country: z.enum(COUNTRIES, { error: 'Country must be United States or Canada' }).default('United States'),
    phoneNumber: optional(50),
    isDefault: z.boolean().default(false),
  })
  .transform((v) => ({ ...v, zipCode: normalisePostalCode(v.country, v.zipCode), state: v.state.toUpperCase() }))
  .superRefine((v, ctx) => {
    if (!REGIONS[v.country].some((r) => r.code === v.state)) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: v.country === 'Canada' ? 'Choose a Canadian province or territory' : 'Choose a US state' });
    }
    const postal = POSTAL_CODE[v.country];
    if (!postal.pattern.test(v.zipCode)) ctx.addIssue({ code: 'custom', path: ['zipCode'], message: postal.message });
  });
export type AddressInput = z.input<typeof addressInputSchema>;
export type AddressFields = Omit<z.output<typeof addressInputSchema>, 'isDefault'>;

/** The lines of an address, as the book, an order and its events keep them. */
export const addressFieldsSchema = z.object({
  fullName: z.string(),
  addressLine1: z.string(),
  addressLine2: z.string().nullable(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  country: z.string(),
  phoneNumber: z.string().nullable(),
});

/** One address of the book, as GET /api/shipping-addresses answers (camelCase, SPEC.md §3). */
export const shippingAddressSchema = addressFieldsSchema.extend({
  id: z.string(),
  isDefault: z.boolean(),
  agsAddressId: z.number().int().nullable(),
  createdAt: z.string(),
});
export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

export const addressSyncResultSchema = z.object({ synced: z.number().int(), message: z.string() });
export type AddressSyncResult = z.infer<typeof addressSyncResultSchema>;
