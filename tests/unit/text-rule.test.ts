import { readdirSync, readFileSync, statSync } from "node:fs";
import { bookAccountsSchema, DEFAULT_BOOK_ACCOUNTS } from "@/lib/books/accounts";
import { periodSchema } from "@/lib/books/periods";
import { watchInputSchema } from "@/lib/catalog-watch/watch-target";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import {
  findTextProblems,
  isoDaySchema,
  bigintCursorSchema,
  textProblem,
  parseInput,
  moneyAmount,
  singleLineText,
} from "@/lib/validation";
import { isAppError } from "@/lib/errors";
import { readRowInput } from "@/lib/bulk-orders/row-input";
import {
  accessLinkIdSchema,
  createStaffSchema,
  inviteStaffSchema,
  updateStaffSchema,
  useAccessLinkSchema,
} from "@/lib/staff/schemas";
import { placeOrderSchema } from "@/lib/orders/schemas";
import { quoteRequestSchema } from "@/lib/orders/get-quote";
import { orderFilterSchema, orderCursorSchema } from "@/lib/orders/list-orders";
import { orderIdSchema } from "@/lib/orders/get-order";
import { auditCursorSchema, auditFilterSchema } from "@/lib/audit/list-audit";
import { bulkOrderIdSchema } from "@/lib/bulk-orders/bulk-order-id";
import { staffIdSchema } from "@/lib/staff/schemas";
import { eventIdSchema } from "@/lib/webhooks/reprocess-event";
import { depositCursorSchema } from "@/lib/wallet/list-deposits";
import { reconciliationCursorSchema } from "@/lib/reconciliation/list-reconciliations";
import { catalogApiQuerySchema, catalogQuerySchema } from "@/lib/catalog/list-products";
import { revealRequestSchema } from "@/lib/reveal/reveal-codes";
import { uploadBulkOrderSchema } from "@/lib/bulk-orders/preview-bulk-order";
import { templateQuerySchema } from "@/lib/bulk-orders/bulk-template";
import { credentialsSchema } from "@/lib/auth/credentials-schema";
import {
  factorIdSchema,
  proofSchema,
  registerPasskeySchema,
  renameFactorSchema,
  startTotpSchema,
} from "@/lib/auth/second-factor/schemas";
import { eventCursorSchema, eventFilterSchema } from "@/lib/webhooks/list-events";
import {
  approveSchema,
  rejectSchema,
  withdrawalIdSchema,
  withdrawalQuoteSchema,
  withdrawalRequestSchema,
} from "@/lib/withdrawals/schemas";
import { approveSpendSchema, rejectSpendSchema, spendLimitSchema, spendRequestIdSchema } from "@/lib/spend/schemas";
import { DEFAULT_SETTINGS, settingsSchema } from "@/lib/settings/schema";
import { emailChoicesSchema, workspaceChoicesSchema } from "@/lib/notifications/preference-input";

const RUNS = { numRuns: 100 };

// The characters the rule refuses everywhere: C0 controls but TAB/LF/CR, and lone surrogates.
const forbiddenChar = fc.oneof(
  fc
    .integer({ min: 0x00, max: 0x1f })
    .filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)
    .map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);
const lineBreak = fc.constantFrom("\n", "\r", "\r\n");
/** Text a person types: any Unicode scalar values (emoji, accents, RTL) but no controls. */
const safeText = (min: number, max: number) =>
  fc
    .string({
      unit: fc.oneof(
        fc.constantFrom(..."abcXYZ019 -_.,'&é"),
        fc
          .integer({ min: 0x20, max: 0x10ffff })
          .filter((c) => c < 0xd800 || c > 0xdfff)
          .filter((c) => c !== 0x7f)
          .map((c) => String.fromCodePoint(c)),
      ),
      minLength: min,
      maxLength: max,
    })
    .filter((s) => [...s.trim()].length >= min);
/** `text` with `char` inserted at any position (a lone high surrogate at the end stays lone; in front of text it may not: filtered below). */
const withInserted = (char: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.string({ maxLength: 20 }), char, fc.string({ maxLength: 20 }))
    .map(([a, c, b]) => `${a.replace(/[\uD800-\uDFFF]/g, "")}${c}${b.replace(/[\uD800-\uDFFF]/g, "")}`);

describe("the text rule (lib/validation.ts)", () => {
  test("refuses any text holding NUL, a C0 control other than tab and line breaks, or a lone surrogate", () => {
    fc.assert(
      fc.property(withInserted(forbiddenChar), fc.boolean(), (text, multiline) => {
        expect(textProblem(text, { multiline })).not.toBeNull();
      }),
      RUNS,
    );
  });

  test("a control character that trim() takes off an end (vertical tab, form feed) is refused before the trim", () => {
    // Found by the property below with seed 1717059805: "1\v" passed withdrawalRequestSchema as 1.
    for (const schema of [moneyAmount(), singleLineText().trim()])
      for (const bad of ["1\v", "\v1", "1\f", "\f1"]) expect(schema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    expect(moneyAmount().safeParse(" 1 ").data).toBe("1");
  });

  test("accepts what people type (tabs, emoji, accents, any script), and line breaks only in multi-line text", () => {
    fc.assert(
      fc.property(safeText(0, 40), (text) => {
        expect(textProblem(`${text}\t${text}`, { multiline: false })).toBeNull();
      }),
      RUNS,
    );
    fc.assert(
      fc.property(safeText(0, 20), lineBreak, safeText(0, 20), (a, br, b) => {
        expect(textProblem(a + br + b, { multiline: true })).toBeNull();
        expect(textProblem(a + br + b, { multiline: false })).toBe("Must be a single line (no line breaks).");
      }),
      RUNS,
    );
  });

  test("the deep walk finds a forbidden character at any depth of any JSON value, keys included, and names its path", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.array(fc.constantFrom("a", "b", "0"), { minLength: 1, maxLength: 4 }),
        withInserted(forbiddenChar),
        (value, route, bad) => {
          const clean = JSON.parse(JSON.stringify(value).replace(/\\u00[01][0-9a-fA-F]|\\ud[89a-f][0-9a-f]{2}/gi, "")) as unknown;
          expect(findTextProblems(clean, { multiline: true })).toEqual({});
          // Nest the bad text at a random path.
          let nested: unknown = bad;
          for (const key of [...route].reverse()) nested = { [key]: nested };
          expect(Object.keys(findTextProblems({ clean, nested }, { multiline: true }))).toContain(["nested", ...route].join("."));
          expect(Object.keys(findTextProblems({ [bad]: 1 }, { multiline: true }))).toEqual(["(field name)"]);
        },
      ),
      RUNS,
    );
  });

  test("a body nested thousands deep is walked without exhausting the stack", () => {
    const deep = JSON.parse(`${"[".repeat(20_000)}"\\u0000"${"]".repeat(20_000)}`) as unknown;
    expect(Object.keys(findTextProblems(deep, { multiline: true }))).toHaveLength(1);
  });
});

/**
 * Every exported input schema: a valid sample, its single-line and multi-line string fields
 * (dotted paths), and the free-text ones for which any typed text is accepted. The last test
 * below fails when a schema is exported without an entry here.
 */
type Entry = {
  schema: z.ZodType;
  sample: Record<string, unknown>;
  single: string[];
  multi?: string[];
  freeText?: Record<string, [number, number]>;
};
const SCHEMAS: Record<string, Entry> = {
  bookAccountsSchema: {
    schema: bookAccountsSchema,
    sample: { ...DEFAULT_BOOK_ACCOUNTS },
    single: [
      "walletNumber",
      "walletName",
      "costOfGoodsNumber",
      "costOfGoodsName",
      "bankClearingNumber",
      "bankClearingName",
      "feesNumber",
      "feesName",
      "suspenseNumber",
      "suspenseName",
      "xeroTaxRate",
    ],
    freeText: { walletNumber: [1, 20], walletName: [1, 100], xeroTaxRate: [1, 60] },
  },
  watchInputSchema: {
    schema: watchInputSchema,
    sample: { productType: "gift-card", brand: "Amazon", countryCode: "US" },
    single: ["brand"],
    freeText: { brand: [2, 60] },
  },
  emailChoicesSchema: {
    schema: emailChoicesSchema,
    sample: { emailKinds: ["orders.failed"], digest: "off", quietStart: "22:00", quietEnd: "07:00", timeZone: "Europe/Paris" },
    single: ["quietStart", "quietEnd", "timeZone"],
  },
  workspaceChoicesSchema: {
    schema: workspaceChoicesSchema,
    sample: {
      emailKinds: ["orders.failed"],
      digest: "hourly",
      quietStart: "",
      quietEnd: "",
      timeZone: "UTC",
      chatKinds: ["wallet.low_balance"],
      chatWebhookUrl: "https://hooks.example.com/services/T0/B0/x",
    },
    single: ["timeZone", "chatWebhookUrl"],
  },
  proofSchema: {
    schema: proofSchema,
    sample: { method: "recovery", code: "abcde-fghij" },
    single: ["code"],
    freeText: { code: [1, 40] },
  },
  startTotpSchema: { schema: startTotpSchema, sample: { name: "Phone" }, single: ["name"], freeText: { name: [1, 60] } },
  renameFactorSchema: {
    schema: renameFactorSchema,
    sample: { name: "Work phone" },
    single: ["name"],
    freeText: { name: [1, 60] },
  },
  registerPasskeySchema: {
    schema: registerPasskeySchema,
    sample: {
      name: "Laptop",
      response: {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: { clientDataJSON: "AAAA", attestationObject: "AAAA", transports: ["internal"] },
      },
    },
    single: ["name", "response.response.transports.0"],
    freeText: { name: [1, 60] },
  },
  createStaffSchema: {
    schema: createStaffSchema,
    sample: { email: "ann@example.com", name: "Ann", roles: ["buyer"], password: "correct horse battery" },
    single: ["email", "name", "password"],
    freeText: { name: [1, 120] },
  },
  updateStaffSchema: { schema: updateStaffSchema, sample: { name: "Ann" }, single: ["name"], freeText: { name: [1, 120] } },
  inviteStaffSchema: {
    schema: inviteStaffSchema,
    sample: { email: "ann@example.com", name: "Ann", roles: ["buyer"] },
    single: ["email", "name"],
    freeText: { name: [1, 120] },
  },
  useAccessLinkSchema: {
    schema: useAccessLinkSchema,
    sample: { token: "a".repeat(43), password: "correct horse battery" },
    single: ["token", "password"],
    freeText: { password: [12, 60] },
  },
  placeOrderSchema: {
    schema: placeOrderSchema,
    sample: {
      idempotencyKey: "k-1",
      clientReference: "ref-1",
      item: { productId: "p1", variantId: "v1", quantity: 1, currency: "USD" },
      approvalReason: "restock",
    },
    single: ["idempotencyKey", "clientReference", "item.productId", "item.variantId", "item.currency", "approvalReason"],
    freeText: { clientReference: [1, 100], approvalReason: [1, 500] },
  },
  quoteRequestSchema: {
    schema: quoteRequestSchema,
    sample: { productId: "p1", variantId: "v1", quantity: 1, currency: "USD" },
    single: ["productId", "variantId", "currency"],
  },
  orderFilterSchema: {
    schema: orderFilterSchema,
    sample: { reference: "abc", product: "p1", from: "2026-01-01", to: "2026-02-01", placedBy: "me" },
    single: ["reference", "product", "from", "to", "placedBy"],
    freeText: { reference: [1, 100], product: [1, 200] },
  },
  auditFilterSchema: {
    schema: auditFilterSchema,
    sample: { actor: "ann", action: "order.placed", from: "2026-01-01", to: "2026-02-01" },
    single: ["actor", "action", "from", "to"],
    freeText: { actor: [1, 200], action: [1, 100] },
  },
  catalogApiQuerySchema: {
    schema: catalogApiQuerySchema,
    sample: { q: "steam", category: "games", country: "US" },
    single: ["q", "category", "country"],
    freeText: { q: [1, 100], category: [1, 60] },
  },
  revealRequestSchema: {
    schema: revealRequestSchema,
    sample: { idempotencyKey: "k-1", ticket: "T-1", reason: "the customer asked" },
    single: ["idempotencyKey", "ticket", "password"],
    multi: ["reason"],
    freeText: { ticket: [1, 64], reason: [5, 500] },
  },
  uploadBulkOrderSchema: {
    schema: uploadBulkOrderSchema,
    sample: { fileName: "orders.csv", csv: "productId,quantity\np1,1\n" },
    single: ["fileName"],
    multi: ["csv"],
    freeText: { fileName: [1, 200] },
  },
  credentialsSchema: {
    schema: credentialsSchema,
    sample: { email: "ann@example.com", password: "secret" },
    single: ["email", "password"],
  },
  eventFilterSchema: { schema: eventFilterSchema, sample: { kind: "order.*" }, single: ["kind"] },
  withdrawalQuoteSchema: {
    schema: withdrawalQuoteSchema,
    sample: { amount: "10", currency: "USD" },
    single: ["amount", "currency"],
  },
  withdrawalRequestSchema: {
    schema: withdrawalRequestSchema,
    sample: { amount: "10", currency: "USD", reason: "monthly payout" },
    single: ["amount", "currency"],
    multi: ["reason"],
    freeText: { reason: [5, 500] },
  },
  approveSchema: {
    schema: approveSchema,
    sample: { comment: "fine" },
    single: [],
    multi: ["comment"],
    freeText: { comment: [0, 500] },
  },
  templateQuerySchema: { schema: templateQuerySchema, sample: { productId: "p1" }, single: ["productId"] },
  rejectSchema: {
    schema: rejectSchema,
    sample: { comment: "not this month" },
    single: [],
    multi: ["comment"],
    freeText: { comment: [3, 500] },
  },
  approveSpendSchema: {
    schema: approveSpendSchema,
    sample: { comment: "fine" },
    single: [],
    multi: ["comment"],
    freeText: { comment: [0, 500] },
  },
  rejectSpendSchema: {
    schema: rejectSpendSchema,
    sample: { comment: "not this quarter" },
    single: [],
    multi: ["comment"],
    freeText: { comment: [1, 500] },
  },
  spendLimitSchema: {
    schema: spendLimitSchema,
    sample: { scope: "workspace", currency: "USD", perOrder: "100.00", perDay: "", perMonth: "1000" },
    single: ["scope", "currency", "perOrder", "perDay", "perMonth"],
  },
  settingsSchema: {
    schema: settingsSchema,
    sample: { ...DEFAULT_SETTINGS, payoutDetailsName: "Acme Trading Ltd · account ending 4821" },
    single: ["orderConfirmationAmount", "spendApprovalAmount", "payoutDetailsName"],
    freeText: { payoutDetailsName: [0, 120] },
  },
};
/** Exported schemas with no free text: fixed patterns (ids, cursors, codes, numbers), which refuse every control character by their pattern. */
const PATTERN_ONLY: Record<string, z.ZodType> = {
  periodSchema,
  orderCursorSchema,
  orderIdSchema,
  isoDaySchema,
  bigintCursorSchema,
  auditCursorSchema,
  depositCursorSchema,
  bulkOrderIdSchema,
  staffIdSchema,
  accessLinkIdSchema,
  eventCursorSchema,
  eventIdSchema,
  withdrawalIdSchema,
  spendRequestIdSchema,
  factorIdSchema,
  reconciliationCursorSchema,
};
const NOT_INPUT_TEXT = [
  "journalQuerySchema", // periodSchema, an enum and a currency code
  "deliverySchema", // enums and a list of staff ids
  "catalogQuerySchema", // the page's lenient twin of catalogApiQuerySchema: a bad value falls back to the default (tested below)
  "optionalIsoDaySchema", // isoDaySchema, optional
  "withdrawalAmountSchema", // the base of withdrawalQuoteSchema and withdrawalRequestSchema
  "passwordSchema", // a field of createStaffSchema and useAccessLinkSchema
  "approvalReasonSchema", // a field of placeOrderSchema (its own copy there) and of the bulk confirmation's body
  "faceValueSchema", // a number field of placeOrderSchema and quoteRequestSchema
  // enums, numbers and currency codes only:
  "withdrawalListQuerySchema",
  "creditQuerySchema",
  "historyQuerySchema",
  "depositQuerySchema",
  "rolesSchema",
  "importActionSchema",
  "spendListQuerySchema",
  "reconciliationFilterSchema", // a status enum and an ISO day
  "reportFilterSchema", // the spend report: enums and ISO days
  "policySchema", // the second-factor policy: role enums
  "ssoOnlySchema", // SSO-only mode: one boolean
  "confirmTotpSchema", // a factor id (uuid) and 6 digits
  "workspaceNotificationSchema", // the stored Setting row (read back, never from a request): workspaceChoicesSchema is its input
];

function setPath(sample: Record<string, unknown>, dotted: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(sample);
  const keys = dotted.split(".");
  let at: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys[keys.length - 1]!] = value;
  return copy;
}

function refusedAt(schema: z.ZodType, input: unknown): string[] {
  try {
    parseInput(schema, input);
    return [];
  } catch (error) {
    if (!isAppError(error) || error.code !== "invalid_request") throw error;
    return Object.keys(error.fieldErrors ?? {});
  }
}

describe.each(Object.entries(SCHEMAS))("%s", (_name, { schema, sample, single, multi = [], freeText = {} }) => {
  test("its sample is valid", () => {
    if (Object.keys(sample).length) expect(schema.safeParse(sample).success).toBe(true);
  });

  test.each([...single, ...multi])(
    "%s refuses any text with a forbidden character, at the door and in the schema alone",
    (field) => {
      fc.assert(
        fc.property(withInserted(forbiddenChar), (bad) => {
          const input = setPath(sample, field, bad);
          expect(refusedAt(schema, input)).toContain(field);
          // Pages and CSV rows call safeParse without the door's walk: the schema holds the rule too.
          expect(schema.safeParse(input).success).toBe(false);
        }),
        RUNS,
      );
    },
  );

  test.each(single)("%s is one line: a line break is refused", (field) => {
    fc.assert(
      fc.property(safeText(1, 10), lineBreak, (text, br) => {
        expect(schema.safeParse(setPath(sample, field, `${text}${br}${text}`)).success).toBe(false);
      }),
      RUNS,
    );
  });

  test.each(Object.entries(freeText))(
    "%s accepts any typed text within its length (line breaks too where multi-line)",
    (field, [min, max]) => {
      const multiline = multi.includes(field);
      const text = multiline
        ? fc
            .tuple(safeText(Math.max(min, 1), Math.floor(max / 3)), lineBreak, safeText(0, Math.floor(max / 3)))
            .map(([a, br, b]) => `${a}${br}${b}`)
        : safeText(min, max);
      fc.assert(
        // zod measures length in code points: an emoji is one character to it (and to the person typing).
        fc.property(
          text.filter((t) => [...t.trim()].length >= min && t.length <= max && t.trim().length > 0),
          (good) => {
            // Emails and ids have their own shape; free text is anything a person types.
            expect(refusedAt(schema, setPath(sample, field, good))).toEqual([]);
          },
        ),
        RUNS,
      );
    },
  );
});

describe("dates and cursors", () => {
  test("a day outside 2000-01-01..2100-12-31 is refused, a day inside accepted", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        (year, month, day) => {
          const text = `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
          expect(isoDaySchema.safeParse(text).success).toBe(year >= 2000 && year <= 2100);
        },
      ),
      RUNS,
    );
    expect(isoDaySchema.safeParse("10000-01-01").success).toBe(false);
    expect(orderFilterSchema.safeParse({ from: "0000-01-01" }).success).toBe(false);
    expect(auditFilterSchema.safeParse({ to: "9999-12-31" }).success).toBe(false);
  });

  test("a cursor past PostgreSQL's BIGINT is refused", () => {
    expect(bigintCursorSchema.safeParse("9223372036854775807").success).toBe(true);
    expect(bigintCursorSchema.safeParse("9223372036854775808").success).toBe(false);
    expect(bigintCursorSchema.safeParse("99999999999999999999").success).toBe(false);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 63n - 1n }), (n) => {
        expect(bigintCursorSchema.safeParse(n.toString()).success).toBe(true);
      }),
      RUNS,
    );
  });

  test("fixed-pattern schemas refuse every forbidden character", () => {
    for (const schema of Object.values(PATTERN_ONLY))
      fc.assert(
        fc.property(withInserted(forbiddenChar), (bad) => {
          expect(schema.safeParse(bad).success).toBe(false);
        }),
        RUNS,
      );
  });

  test("the catalog page falls back to no search for a query it cannot use", () => {
    expect(catalogQuerySchema.parse({ q: "a\u0000b" }).q).toBeUndefined();
  });
});

describe("bulk CSV cells", () => {
  test("a cell with a line break (a quoted cell may hold one) is an error on that cell", () => {
    const cells = { productId: "p1", variantId: "v1", value: "", quantity: "1", clientReference: "ref\n2", phoneNumber: "" };
    expect(readRowInput(cells).errors.clientReference).toEqual(["Must be a single line (no line breaks)."]);
  });
});

describe("coverage", () => {
  test("every exported input schema under lib/ is covered by this file", () => {
    const names = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) {
          if (entry !== "generated" && full !== path.resolve(import.meta.dirname, "../../lib/upstream/client")) walk(full);
        } else if (full.endsWith(".ts")) {
          for (const m of readFileSync(full, "utf8").matchAll(/export const (\w+Schema)\b\s*=/g)) names.add(m[1]!);
        }
      }
    };
    walk(path.resolve(import.meta.dirname, "../../lib"));
    const known = new Set([...Object.keys(SCHEMAS), ...Object.keys(PATTERN_ONLY), ...NOT_INPUT_TEXT]);
    expect([...names].filter((n) => !known.has(n))).toEqual([]);
  });
});
