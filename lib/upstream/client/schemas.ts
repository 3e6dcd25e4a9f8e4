import { z } from "zod";

/**
 * zod schemas for every resource of the Issuing Service's Integration API v1 (its published contract).
 * Where the contract says "not shown", the shapes are those of our sandbox (sandbox/README.md);
 * unknown extra fields are tolerated (the upstream may add fields), missing or mistyped
 * ones are a malformed response.
 */
const timestamp = z.string().datetime({ offset: true });
const amount = z.number().finite();
const currency = z.string().regex(/^[A-Z]{3}$/);
/** A page of a list read by cursor (orders, deposits, withdrawals). */
const cursorPage = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable(), hasMore: z.boolean() });

export const problemSchema = z.object({
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.string().optional(),
  code: z.string().optional(),
  correlationId: z.string().optional(),
  errors: z.record(z.string(), z.union([z.array(z.string()), z.string()])).optional(),
  quotedTotal: z.number().optional(),
});

export const variantSchema = z.object({ id: z.string(), displayValue: z.string(), price: amount, currency });

export const imageSchema = z.object({
  id: z.string(),
  publicReference: z.string(),
  url: z.string(),
  altText: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  sortOrder: z.number().int(),
  isPrimary: z.boolean(),
});

export const productSchema = z.object({
  id: z.string(),
  type: z.enum(["gift-card", "esim", "phone-top-up"]),
  name: z.string(),
  countryCode: z.string(),
  currency,
  isAvailable: z.boolean(),
  variants: z.array(variantSchema),
  minimumValue: amount.nullable(),
  maximumValue: amount.nullable(),
  valueStep: amount.nullable(),
  imageUrl: z.string(),
  images: z.array(imageSchema),
  description: z.string(),
  terms: z.string(),
  category: z.string(),
  isFeatured: z.boolean(),
  sortOrder: z.number().int(),
});

export const productPageSchema = z.object({
  items: z.array(productSchema),
  offset: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
});

export const quoteSchema = z.object({
  id: z.string(),
  productId: z.string(),
  variantId: z.string().nullable(),
  quantity: z.number().int(),
  total: amount,
  currency,
  expiresAtUtc: timestamp,
});

export const orderLineSchema = z.object({
  productId: z.string(),
  variantId: z.string().nullable(),
  productName: z.string(),
  variantLabel: z.string(),
  quantity: z.number().int(),
  unitPrice: amount,
  currency,
  faceValue: amount.nullable(),
  faceCurrency: z.string().nullable(),
});

export const orderStatusSchema = z
  .string()
  .transform((s) => s.toLowerCase())
  .pipe(z.enum(["reserved", "processing", "fulfilled", "failed", "refunded"]));

export const orderSchema = z.object({
  id: z.string(),
  clientReference: z.string(),
  status: orderStatusSchema,
  total: amount,
  currency,
  // Absent in the contract's quote-based example response.
  lines: z.array(orderLineSchema).optional(),
  createdAtUtc: timestamp,
  updatedAtUtc: timestamp,
});

export const orderPageSchema = cursorPage(orderSchema);

export const revealSchema = z.object({
  orderId: z.string(),
  revealCount: z.number().int(),
  artifacts: z.array(z.object({ type: z.string(), value: z.string(), expiresAtUtc: timestamp.nullable() })),
});

export const balanceSchema = z.object({
  currency,
  availableBalance: amount,
  reservedBalance: amount,
  pendingWithdrawalBalance: amount.optional(),
  totalBalance: amount.optional(),
  updatedAtUtc: timestamp.nullable().optional(),
});
export const balanceListSchema = z.object({ items: z.array(balanceSchema) });

export const depositAddressSchema = z.object({
  network: z.string(),
  asset: z.string(),
  currency,
  address: z.string(),
  requiredConfirmations: z.number().int().optional(),
  createdAtUtc: timestamp,
});

export const depositSchema = z.object({
  id: z.string(),
  rail: z.string().optional(),
  network: z.string().nullable().optional(),
  asset: z.string().nullable().optional(),
  transactionHash: z.string().nullable(),
  reference: z.string().nullable().optional(),
  fromAddress: z.string().nullable().optional(),
  toAddress: z.string().nullable().optional(),
  amount,
  currency,
  confirmations: z.number().int().nullable(),
  occurredAtUtc: timestamp,
  creditedAtUtc: timestamp.nullable().optional(),
});
export const depositPageSchema = cursorPage(depositSchema);

export const withdrawalTermsSchema = z.object({
  amount,
  currency,
  fee: amount,
  netAmount: amount,
  payoutDateUtc: timestamp,
  availableBalance: amount.optional(),
  isCoveredByBalance: z.boolean().optional(),
});

export const withdrawalSchema = z.object({
  id: z.string(),
  amount,
  currency,
  fee: amount,
  netAmount: amount,
  status: z.string(),
  requestedAtUtc: timestamp,
  payoutDateUtc: timestamp,
  cancelledAtUtc: timestamp.nullable().optional(),
  paidAtUtc: timestamp.nullable().optional(),
});
export const withdrawalPageSchema = cursorPage(withdrawalSchema);

export const webhookEnvelopeSchema = z.object({
  id: z.string(),
  type: z.string(),
  occurredAtUtc: timestamp,
  data: z.record(z.string(), z.unknown()),
});

export type Product = z.infer<typeof productSchema>;
export type ProductPage = z.infer<typeof productPageSchema>;
export type Quote = z.infer<typeof quoteSchema>;
export type Order = z.infer<typeof orderSchema>;
export type OrderLine = z.infer<typeof orderLineSchema>;
export type OrderStatus = z.infer<typeof orderStatusSchema>;
export type OrderPage = z.infer<typeof orderPageSchema>;
export type Reveal = z.infer<typeof revealSchema>;
export type Balance = z.infer<typeof balanceSchema>;
export type DepositAddress = z.infer<typeof depositAddressSchema>;
export type Deposit = z.infer<typeof depositSchema>;
export type DepositPage = z.infer<typeof depositPageSchema>;
export type WithdrawalTerms = z.infer<typeof withdrawalTermsSchema>;
export type Withdrawal = z.infer<typeof withdrawalSchema>;
export type WithdrawalPage = z.infer<typeof withdrawalPageSchema>;
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;
