"use client";

import { useEffect, useRef, useState } from "react";
import type { ProductView } from "@/lib/catalog/product-view";
import { toMinor } from "@/lib/money";
import { checkPhone, checkQuantity, checkValue, gridValues } from "./purchase-rules";
import { clearDraft, loadDraft, saveDraft } from "./order-draft";

/** What the buyer picks and types, each as its field holds it. */
export type OrderFields = {
  variantId: string;
  value: string;
  quantity: string;
  clientReference: string;
  phoneNumber: string;
  maximumTotal: string;
  approvalReason: string;
};
type Checked = Exclude<keyof OrderFields, "approvalReason">;
export type FieldErrors = Partial<Record<Checked, string>>;

/** The server's names for the fields it refuses (quote and order bodies). */
const FROM_SERVER: Record<string, Checked> = {
  "item.quantity": "quantity",
  quantity: "quantity",
  value: "value",
  "item.value": "value",
  variantId: "variantId",
  clientReference: "clientReference",
  phoneNumber: "phoneNumber",
  maximumTotal: "maximumTotal",
};

function initialFields(product: ProductView, defaultReference: string): OrderFields {
  return {
    variantId: product.variants[0]?.id ?? "",
    value: gridValues(product)?.[0]?.toString() ?? product.minimumValue?.toString() ?? "",
    quantity: "1",
    clientReference: defaultReference,
    phoneNumber: "",
    maximumTotal: "",
    approvalReason: "",
  };
}

/**
 * The order form's fields, checked here before anything is sent (the server checks again),
 * and what they make: `item` (a quote's body, or buy-now's item) and `extras` (sent with any
 * order). What the person types is kept for this tab (order-draft.ts, under `draftOwner`) and
 * given back when the form opens again, e.g. after signing in again mid-order (`restored`).
 */
export function useOrderFields(product: ProductView, defaultReference: string, draftOwner: string) {
  const byVariant = product.variants.length > 0;
  const [fields, setFields] = useState<OrderFields>(() => initialFields(product, defaultReference));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [restored, setRestored] = useState(false);
  // Only what a person changed is kept: a form merely opened leaves no draft behind.
  const typed = useRef(false);

  useEffect(() => {
    const draft = loadDraft(product.id, draftOwner);
    if (!draft) return;
    // Still stored as it is: saving starts again with the next change (saving here would write the defaults first).
    // A variant the product no longer offers falls back to the first one; the rest is as typed.
    const variantId = product.variants.some((v) => v.id === draft.variantId) ? draft.variantId : undefined;
    // sessionStorage exists only after mount, so the draft cannot be known at first render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setFields((f) => ({ ...f, ...draft, variantId: variantId ?? f.variantId }));
    setRestored(true);
  }, [product, draftOwner]);

  useEffect(() => {
    if (typed.current) saveDraft(product.id, draftOwner, fields);
  }, [product.id, draftOwner, fields]);

  /** A corrected field loses its old error at once. */
  function change(name: keyof OrderFields, value: string) {
    typed.current = true;
    setFields((f) => ({ ...f, [name]: value }));
    setErrors((e) => (name !== "approvalReason" && e[name] ? { ...e, [name]: undefined } : e));
  }

  /** Back to a fresh form (and no draft kept). */
  function startOver() {
    typed.current = false;
    clearDraft(product.id);
    setFields(initialFields(product, defaultReference));
    setErrors({});
    setRestored(false);
  }

  function validate(): boolean {
    const { variantId, value, quantity, clientReference, phoneNumber, maximumTotal } = fields;
    const reference = clientReference.trim();
    const found: FieldErrors = {
      variantId: byVariant && !product.variants.some((v) => v.id === variantId) ? "Choose a variant." : undefined,
      value: byVariant ? undefined : (checkValue(product, value) ?? undefined),
      quantity: checkQuantity(quantity) ?? undefined,
      clientReference: !reference
        ? "Enter a client reference."
        : reference.length > 100
          ? "Use at most 100 characters."
          : undefined,
      phoneNumber: checkPhone(product, phoneNumber) ?? undefined,
      maximumTotal:
        maximumTotal.trim() && !(Number(maximumTotal) > 0) ? "Enter an amount above zero, or leave it empty." : undefined,
    };
    const clean = Object.fromEntries(Object.entries(found).filter(([, v]) => v)) as FieldErrors;
    setErrors(clean);
    return Object.keys(clean).length === 0;
  }

  /** A refusal's field errors, at the fields they belong to. */
  function showServerErrors(fieldErrors?: Record<string, string[]>) {
    if (!fieldErrors) return;
    const mapped = Object.entries(fieldErrors).flatMap(([k, v]) => (FROM_SERVER[k] ? [[FROM_SERVER[k], v[0]]] : []));
    setErrors(Object.fromEntries(mapped) as FieldErrors);
  }

  const item = {
    productId: product.id,
    ...(byVariant ? { variantId: fields.variantId } : { value: Number(fields.value) }),
    quantity: Number(fields.quantity),
    currency: product.currency,
  };
  const extras = {
    clientReference: fields.clientReference.trim(),
    ...(product.type === "phone-top-up" ? { phoneNumber: fields.phoneNumber.trim() } : {}),
    ...(fields.approvalReason.trim() ? { approvalReason: fields.approvalReason.trim() } : {}),
  };
  const variant = product.variants.find((v) => v.id === fields.variantId);
  /** The chosen variant's list price times the quantity; null for a value range (the quote prices it). */
  const listedMinor = variant ? toMinor(variant.price, product.currency) * BigInt(Number(fields.quantity) || 0) : null;
  const maximum = Number(fields.maximumTotal);
  /** Buy-now's ceiling, when one is set. */
  const maximumTotal = fields.maximumTotal.trim() ? maximum : undefined;
  const maximumMinor = maximumTotal !== undefined && maximum > 0 ? toMinor(maximum, product.currency) : null;

  return {
    fields,
    errors,
    change,
    validate,
    showServerErrors,
    item,
    extras,
    listedMinor,
    maximumTotal,
    maximumMinor,
    restored,
    startOver,
  };
}
