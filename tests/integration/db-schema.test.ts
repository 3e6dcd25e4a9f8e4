import { describe, expect, test } from "vitest";
import path from "node:path";
import pg from "pg";
import { db } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { databaseUrl } from "../support/db";

/**
 * The migrations (hand-written SQL) and schema.prisma must agree: every model and field
 * is written and read back through the generated client on the freshly migrated database.
 */
describe("migrations agree with schema.prisma", () => {
  test("every model and field round-trips through the generated client", async () => {
    const staff = await db().staff.create({
      data: {
        email: `schema-${Date.now()}@test.local`,
        name: "Schema",
        passwordHash: "$argon2id$x",
        roles: ["admin", "viewer"],
        active: false,
        sessionVersion: 7,
      },
    });
    expect(await db().staff.findUniqueOrThrow({ where: { id: staff.id } })).toEqual(staff);

    const at = new Date("2026-01-02T03:04:05.678Z");
    const session = await db().staffSession.create({
      data: {
        staffId: staff.id,
        sessionVersion: 7,
        createdAt: at,
        lastSeenAt: at,
        reauthAt: at,
        endedAt: at,
        endReason: "x",
        ip: "127.0.0.1",
        userAgent: "ua",
      },
    });
    expect(await db().staffSession.findUniqueOrThrow({ where: { id: session.id } })).toEqual(session);

    const throttle = await db().signInThrottle.create({
      data: { key: `k-${Date.now()}`, failures: 3, lockedUntil: at, lastFailureAt: at },
    });
    expect(await db().signInThrottle.findUniqueOrThrow({ where: { key: throttle.key } })).toEqual(throttle);

    const audit = await db().auditEvent.create({
      data: {
        at,
        actorId: staff.id,
        actorEmail: staff.email,
        action: "a",
        targetType: "t",
        targetId: "i",
        ip: "::1",
        userAgent: "u",
        correlationId: "c",
        details: { nested: { n: 1 }, list: [1, "2"] },
      },
    });
    expect(await db().auditEvent.findUniqueOrThrow({ where: { id: audit.id } })).toEqual(audit);

    const setting = await db().setting.create({
      data: { key: `s-${Date.now()}`, value: { amount: "10.50" }, updatedBy: staff.id },
    });
    expect(await db().setting.findUniqueOrThrow({ where: { key: setting.key } })).toEqual(setting);

    const order = await db().order.create({
      data: {
        id: `ord-${Date.now()}`,
        clientReference: "ref",
        status: "reserved",
        totalMinor: 123456789012n,
        currency: "USD",
        lines: [{ productId: "p", quantity: 2 }],
        upstreamCreatedAt: at,
        upstreamUpdatedAt: at,
        lastEventAt: at,
        placedById: staff.id,
        idempotencyKey: `idem-${Date.now()}`,
        syncedAt: at,
        nextCheckAt: at,
        checkAttempts: 3,
      },
    });
    expect(await db().order.findUniqueOrThrow({ where: { id: order.id } })).toEqual(order);

    const key = await db().idempotencyKey.create({
      data: {
        key: `k-${Date.now()}`,
        purpose: "order.create",
        requestHash: "h",
        requestBody: { item: { quantity: 1 } },
        state: "unknown",
        resultId: "r",
        staffId: staff.id,
        attempts: 2,
        errorCode: "timeout",
        correlationId: "c",
      },
    });
    expect(await db().idempotencyKey.findUniqueOrThrow({ where: { key: key.key } })).toEqual(key);

    const event = await db().webhookEvent.create({
      data: {
        id: `e${Date.now()}`,
        type: "order.fulfilled",
        occurredAt: at,
        receivedAt: at,
        payload: { data: { orderId: "o" } },
        state: "failed",
        attempts: 4,
        lastError: "x",
        processedAt: at,
      },
    });
    expect(await db().webhookEvent.findUniqueOrThrow({ where: { id: event.id } })).toEqual(event);

    const window = await db().rateBudget.create({ data: { windowStart: new Date("2001-01-01T00:01:00Z"), used: 42 } });
    expect(await db().rateBudget.findUniqueOrThrow({ where: { windowStart: window.windowStart } })).toEqual(window);

    const credit = await db().walletCredit.create({
      data: { eventId: `c${Date.now()}`, amountMinor: 5000n, currency: "USD", availableBalanceMinor: 99000n, occurredAt: at },
    });
    expect(await db().walletCredit.findUniqueOrThrow({ where: { eventId: credit.eventId } })).toEqual(credit);

    const read = await db().balanceRead.create({ data: { currency: "USD", availableMinor: 123_456_789_012n, readAt: at } });
    expect(await db().balanceRead.findUniqueOrThrow({ where: { id: read.id } })).toEqual(read);

    const status = await db().serviceStatus.upsert({
      where: { id: 1 },
      create: { id: 1, lastErrorAt: at, lastErrorStatus: 503, lastErrorCode: "x", lastErrorPath: "/p", lastCorrelationId: "c" },
      update: { lastErrorAt: at, lastErrorStatus: 503, lastErrorCode: "x", lastErrorPath: "/p", lastCorrelationId: "c" },
    });
    expect(await db().serviceStatus.findUniqueOrThrow({ where: { id: 1 } })).toEqual(status);

    const sync = await db().orderSync.create({
      data: {
        source: `https://schema-${Date.now()}.test`,
        importState: "paused",
        importCursor: "c",
        importPages: 3,
        importOrders: 300,
        importStartedAt: at,
        importFinishedAt: at,
        importLastPageAt: at,
        callsWindowStart: at,
        callsInWindow: 2,
        highWaterMark: at,
        lastSyncAt: at,
        lastSyncOrders: 4,
        lastError: "e",
      },
    });
    expect(await db().orderSync.findUniqueOrThrow({ where: { source: sync.source } })).toEqual(sync);
    await expect(db().orderSync.create({ data: { source: `${sync.source}/2`, importState: "sideways" } })).rejects.toThrow();
    await db().orderSync.delete({ where: { source: sync.source } });

    const pending = await db().staffSession.create({
      data: {
        staffId: staff.id,
        sessionVersion: 7,
        pendingStep: "second_factor",
        firstFactor: "password",
        challenge: "c",
        challengeAt: at,
      },
    });
    expect(await db().staffSession.findUniqueOrThrow({ where: { id: pending.id } })).toEqual(pending);
    await expect(
      db().staffSession.create({ data: { staffId: staff.id, sessionVersion: 7, pendingStep: "later" } }),
    ).rejects.toThrow();
    const totp = await db().secondFactor.create({
      data: {
        staffId: staff.id,
        kind: "totp",
        name: "Phone",
        totpSecret: "v1.a.b.c",
        totpLastStep: 59_000_000n,
        confirmedAt: at,
        lastUsedAt: at,
      },
    });
    expect(await db().secondFactor.findUniqueOrThrow({ where: { id: totp.id } })).toEqual(totp);
    const passkey = await db().secondFactor.create({
      data: {
        staffId: staff.id,
        kind: "passkey",
        name: "Laptop",
        credentialId: `cred-${Date.now()}`,
        publicKey: new Uint8Array([1, 2, 3]),
        signCount: 5n,
        transports: ["internal", "hybrid"],
        confirmedAt: at,
      },
    });
    expect(await db().secondFactor.findUniqueOrThrow({ where: { id: passkey.id } })).toEqual(passkey);
    // A TOTP row without a sealed secret, or a passkey without its key, is refused.
    await expect(db().secondFactor.create({ data: { staffId: staff.id, kind: "totp", name: "x" } })).rejects.toThrow();
    await expect(
      db().secondFactor.create({ data: { staffId: staff.id, kind: "passkey", name: "x", credentialId: `c2-${Date.now()}` } }),
    ).rejects.toThrow();
    const recovery = await db().recoveryCode.create({ data: { staffId: staff.id, codeHash: `h-${Date.now()}`, usedAt: at } });
    expect(await db().recoveryCode.findUniqueOrThrow({ where: { id: recovery.id } })).toEqual(recovery);

    const link = await db().accessLink.create({
      data: {
        purpose: "password_reset",
        tokenHash: `t-${Date.now()}`,
        email: staff.email,
        name: staff.name,
        roles: ["viewer"],
        staffId: staff.id,
        createdById: staff.id,
        createdAt: at,
        sentAt: at,
        sendCount: 2,
        expiresAt: at,
        usedAt: at,
        revokedAt: at,
        expiredAt: at,
      },
    });
    expect(await db().accessLink.findUniqueOrThrow({ where: { id: link.id } })).toEqual(link);
    // A reset link names its person; a purpose outside the two is refused.
    await expect(
      db().accessLink.create({
        data: { purpose: "password_reset", tokenHash: `t2-${Date.now()}`, email: "x", name: "x", expiresAt: at },
      }),
    ).rejects.toThrow();
    await expect(
      db().accessLink.create({ data: { purpose: "other", tokenHash: `t3-${Date.now()}`, email: "x", name: "x", expiresAt: at } }),
    ).rejects.toThrow();

    const picture = await db().productImage.create({
      data: {
        publicReference: `schema-${Date.now()}`,
        contentType: "image/png",
        body: new Uint8Array([137, 80, 78, 71, 0, 255]),
        etag: '"e"',
        seenAt: at,
        fetchedAt: at,
        checkedAt: at,
      },
    });
    expect(await db().productImage.findUniqueOrThrow({ where: { publicReference: picture.publicReference } })).toEqual(picture);

    // Cascade declared in the schema is present in the SQL.
    await db().staff.delete({ where: { id: staff.id } });
    expect(await db().accessLink.count({ where: { staffId: staff.id } })).toBe(0);
    expect(await db().staffSession.count({ where: { staffId: staff.id } })).toBe(0);
    expect(await db().secondFactor.count({ where: { staffId: staff.id } })).toBe(0);
    expect(await db().recoveryCode.count({ where: { staffId: staff.id } })).toBe(0);
  });

  test("migrations are recorded the way Prisma records them, and re-running applies nothing", async () => {
    const client = new pg.Client({ connectionString: databaseUrl() });
    await client.connect();
    const { rows } = await client.query(
      `SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations"`,
    );
    await client.end();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).not.toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
    const again = await migrate(databaseUrl(), path.resolve("prisma/migrations"));
    expect(again.applied).toEqual([]);
  });

  test("bulk orders and their rows round-trip, and rows go with their bulk order", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const bulk = await db().bulkOrder.create({
      data: {
        createdById: "staff-x",
        fileName: "f.csv",
        state: "running",
        rowCount: 2,
        validCount: 1,
        totals: [{ currency: "USD", totalMinor: "123456789012345" }],
        createdAt: at,
        confirmedAt: at,
        finishedAt: at,
        cancelledAt: at,
      },
    });
    expect(await db().bulkOrder.findUniqueOrThrow({ where: { id: bulk.id } })).toEqual(bulk);
    const row = await db().bulkOrderRow.create({
      data: {
        bulkOrderId: bulk.id,
        rowNumber: 2,
        input: { productId: "p", quantity: "1" },
        request: { productId: "p", quantity: 1 },
        errors: { value: ["x"] },
        clientReference: "ref",
        productName: "P",
        optionLabel: "$10",
        quotedTotalMinor: 9_007_199_254_740_993n,
        currency: "USD",
        idempotencyKey: `bulk-${bulk.id}-2`,
        state: "placed",
        orderId: "ord",
        errorCode: "e",
        errorMessage: "m",
        correlationId: "c",
        attempts: 3,
        claimedAt: at,
        settledAt: at,
      },
    });
    expect(await db().bulkOrderRow.findUniqueOrThrow({ where: { id: row.id } })).toEqual(row);
    await expect(db().bulkOrderRow.create({ data: { bulkOrderId: bulk.id, rowNumber: 2, input: {} } })).rejects.toMatchObject({
      code: "P2002",
    });
    await expect(
      db().bulkOrderRow.create({ data: { bulkOrderId: bulk.id, rowNumber: 3, input: {}, idempotencyKey: row.idempotencyKey } }),
    ).rejects.toMatchObject({ code: "P2002" });
    await db().bulkOrder.delete({ where: { id: bulk.id } });
    expect(await db().bulkOrderRow.count({ where: { bulkOrderId: bulk.id } })).toBe(0);
  });

  test("withdrawal requests round-trip; the database refuses self-approval and changed terms", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const [maker, checker] = await Promise.all(
      ["maker", "checker"].map((n) =>
        db().staff.create({
          data: { email: `${n}-${Date.now()}@test.local`, name: n, passwordHash: "$argon2id$x", roles: ["finance", "approver"] },
        }),
      ),
    );
    const request = await db().withdrawalRequest.create({
      data: {
        id: `wr_${Date.now()}`,
        amountMinor: 9_007_199_254_740_993n,
        currency: "USD",
        feeMinor: 100n,
        netMinor: 9_007_199_254_740_893n,
        quotedPayoutAt: at,
        reason: "r",
        state: "paid",
        requestedById: maker!.id,
        requestedAt: at,
        expiresAt: at,
        decidedById: checker!.id,
        decidedAt: at,
        decisionComment: "ok",
        sendStartedAt: at,
        lastSendAt: at,
        sendAttempts: 2,
        leaseUntil: at,
        nextCheckAt: at,
        upstreamId: `wdr_${Date.now()}`,
        upstreamStatus: "paid",
        upstreamRequestedAt: at,
        payoutDate: at,
        paidAt: at,
        cancelledById: checker!.id,
        cancelledAt: at,
        failureCode: "f",
        failureMessage: "m",
        correlationId: "c",
      },
    });
    expect(await db().withdrawalRequest.findUniqueOrThrow({ where: { id: request.id } })).toEqual(request);
    await expect(db().withdrawalRequest.update({ where: { id: request.id }, data: { decidedById: maker!.id } })).rejects.toThrow(
      /decider_not_requester/,
    );
    await expect(db().withdrawalRequest.update({ where: { id: request.id }, data: { amountMinor: 1n } })).rejects.toThrow(
      /cannot change/,
    );
    await expect(db().withdrawalRequest.update({ where: { id: request.id }, data: { currency: "EUR" } })).rejects.toThrow(
      /cannot change/,
    );
    expect((await db().withdrawalRequest.findUniqueOrThrow({ where: { id: request.id } })).amountMinor).toBe(
      9_007_199_254_740_993n,
    );
  });

  test("code reveals round-trip; their request never changes, only the outcome, and they are never deleted", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const reveal = await db().codeReveal.create({
      data: {
        idempotencyKey: `rk-${Date.now()}`,
        orderId: "ord_schema",
        staffId: "staff_schema",
        actorEmail: "s@test.local",
        ip: "::1",
        ticket: "T-1",
        reason: "reason",
        correlationId: "c",
        state: "failed",
        revealCount: 3,
        errorCode: "e",
        upstreamCorrelationId: "u",
        startedAt: at,
        finishedAt: at,
      },
    });
    expect(await db().codeReveal.findUniqueOrThrow({ where: { id: reveal.id } })).toEqual(reveal);
    await expect(db().codeReveal.update({ where: { id: reveal.id }, data: { state: "lost" } })).rejects.toThrow(/state_known/);
    await expect(db().codeReveal.update({ where: { id: reveal.id }, data: { ticket: "T-2" } })).rejects.toThrow(/cannot change/);
    await expect(db().codeReveal.update({ where: { id: reveal.id }, data: { staffId: "someone else" } })).rejects.toThrow(
      /cannot change/,
    );
    await expect(db().codeReveal.delete({ where: { id: reveal.id } })).rejects.toThrow(/kept/);
    expect((await db().codeReveal.update({ where: { id: reveal.id }, data: { state: "started", finishedAt: null } })).state).toBe(
      "started",
    );
  });

  test("spend limits, charges, issued quotes and spend requests round-trip; nobody decides their own spend request", async () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    const scope = `schema-${Date.now()}`;
    const limit = await db().spendLimit.create({
      data: {
        scope,
        currency: "USD",
        perOrderMinor: 9_007_199_254_740_993n,
        perDayMinor: 2n,
        perMonthMinor: null,
        updatedById: "s",
      },
    });
    expect(await db().spendLimit.findUniqueOrThrow({ where: { scope_currency: { scope, currency: "USD" } } })).toEqual(limit);
    await expect(db().spendLimit.create({ data: { scope: `${scope}-0`, currency: "USD", perDayMinor: 0n } })).rejects.toThrow(
      /amounts_positive/,
    );
    const charge = await db().spendCharge.create({
      data: {
        id: `sc-${scope}`,
        staffId: "s",
        currency: "USD",
        amountMinor: 5n,
        source: `src-${scope}`,
        state: "spent",
        chargedAt: at,
      },
    });
    expect(await db().spendCharge.findUniqueOrThrow({ where: { id: charge.id } })).toEqual(charge);
    const quote = await db().issuedQuote.create({
      data: {
        id: `q-${scope}`,
        staffId: "s",
        item: { productId: "p", quantity: 1 },
        totalMinor: 7n,
        currency: "USD",
        expiresAt: at,
        createdAt: at,
      },
    });
    expect(await db().issuedQuote.findUniqueOrThrow({ where: { id: quote.id } })).toEqual(quote);
    const request = await db().spendRequest.create({
      data: {
        id: `sr-${scope}`,
        kind: "order",
        state: "awaiting",
        reason: "r",
        why: "w",
        totals: { USD: "100" },
        approvedTotals: { USD: "90" },
        previousTotals: { USD: "80" },
        orderRequest: { clientReference: "c" },
        lines: [{ productId: "p", quantity: 3 }],
        submissionKey: `k-${scope}`,
        bulkOrderId: `b-${scope}`,
        round: 2,
        requestedById: "maker",
        requestedAt: at,
        expiresAt: at,
        decidedById: "checker",
        decidedAt: at,
        decisionComment: "ok",
        orderId: "o",
        failureCode: "f",
      },
    });
    expect(await db().spendRequest.findUniqueOrThrow({ where: { id: request.id } })).toEqual(request);
    await expect(db().spendRequest.update({ where: { id: request.id }, data: { decidedById: "maker" } })).rejects.toThrow(
      /decider_not_requester/,
    );
    // What the approver decides is what is sent: the requester, kind, order and file stay as written.
    for (const data of [
      { requestedById: "checker" },
      { kind: "bulk" },
      { orderRequest: { clientReference: "other" } },
      { lines: [{ productId: "p", quantity: 4 }] },
      { bulkOrderId: `b2-${scope}` },
    ]) {
      await expect(db().spendRequest.update({ where: { id: request.id }, data })).rejects.toThrow(/cannot change/);
    }
    const decided = await db().spendRequest.update({ where: { id: request.id }, data: { state: "placed", round: 3 } });
    expect(decided).toMatchObject({ state: "placed", round: 3, requestedById: "maker" });
  });

  test("notifications, their outbox, preferences and caught mail round-trip; the database refuses a chat delivery to a person", async () => {
    const staff = await db().staff.create({
      data: { email: `schema-n-${Date.now()}@test.local`, name: "N", passwordHash: "$argon2id$x", roles: ["finance"] },
    });
    const at = new Date("2026-01-02T03:04:05.678Z");
    const event = await db().notificationEvent.create({
      data: {
        eventKey: `schema:${Date.now()}`,
        kind: "wallet.low_balance",
        title: "t",
        body: "b",
        link: "/wallet",
        createdAt: at,
      },
    });
    expect(await db().notificationEvent.findUniqueOrThrow({ where: { id: event.id } })).toEqual(event);
    const inApp = await db().notification.create({ data: { eventId: event.id, staffId: staff.id, readAt: at, createdAt: at } });
    expect(await db().notification.findUniqueOrThrow({ where: { id: inApp.id } })).toEqual(inApp);
    const digest = await db().notificationDelivery.create({
      data: { deliveryKey: `d-${Date.now()}`, channel: "email", staffId: staff.id, status: "pending", dueAt: at },
    });
    const email = await db().notificationDelivery.create({
      data: {
        deliveryKey: `e-${Date.now()}`,
        eventId: event.id,
        channel: "email",
        staffId: staff.id,
        status: "digested",
        dueAt: at,
        attempts: 3,
        lastError: "451",
        sentAt: at,
        digestId: digest.id,
        createdAt: at,
      },
    });
    expect(await db().notificationDelivery.findUniqueOrThrow({ where: { id: email.id } })).toEqual(email);
    await expect(
      db().notificationDelivery.create({
        data: {
          deliveryKey: `c-${Date.now()}`,
          eventId: event.id,
          channel: "chat",
          staffId: staff.id,
          status: "pending",
          dueAt: at,
        },
      }),
    ).rejects.toThrow();
    const preference = await db().notificationPreference.create({
      data: {
        staffId: staff.id,
        emailKinds: ["orders.failed"],
        digest: "daily",
        quietStart: 1320,
        quietEnd: 420,
        timeZone: "Europe/Paris",
      },
    });
    expect(await db().notificationPreference.findUniqueOrThrow({ where: { staffId: staff.id } })).toEqual(preference);
    const mail = await db().caughtMail.create({
      data: {
        messageId: `<m-${Date.now()}@x>`,
        from: "a@x",
        to: ["b@x"],
        subject: "s",
        text: "t",
        html: "<p>t</p>",
        receivedAt: at,
      },
    });
    expect(await db().caughtMail.findUniqueOrThrow({ where: { id: mail.id } })).toEqual(mail);
    const beat = await db().workerHeartbeat.create({
      data: {
        instance: `schema-${Date.now()}`,
        host: "h",
        pid: 42,
        startedAt: at,
        beatAt: at,
        working: [{ queue: "q", id: "j", since: at.toISOString() }],
      },
    });
    expect(await db().workerHeartbeat.findUniqueOrThrow({ where: { instance: beat.instance } })).toEqual(beat);
    await db().workerHeartbeat.delete({ where: { instance: beat.instance } });
    const book = await db().bookPeriod.create({
      data: {
        period: "1999-12",
        state: "reopen_requested",
        lockedById: staff.id,
        lockedAt: at,
        reopenRequestedById: staff.id,
        reopenRequestedAt: at,
        reopenReason: "r",
        accounts: { walletNumber: "1" },
      },
    });
    expect(await db().bookPeriod.findUniqueOrThrow({ where: { period: book.period } })).toEqual(book);
    const entry = await db().bookEntry.create({
      data: {
        period: book.period,
        sourceId: "s",
        kind: "order",
        currency: "USD",
        at,
        deltaMinor: -5n,
        feeMinor: 1n,
        reference: "ref",
        late: true,
      },
    });
    expect(
      await db().bookEntry.findUniqueOrThrow({
        where: { period_sourceId_kind: { period: book.period, sourceId: "s", kind: "order" } },
      }),
    ).toEqual(entry);
    await db().bookPeriod.delete({ where: { period: book.period } });
    expect(await db().bookEntry.count({ where: { period: book.period } })).toBe(0);
    await db().staff.delete({ where: { id: staff.id } });
    expect(await db().notificationDelivery.count({ where: { staffId: staff.id } })).toBe(0);
  });

  test("catalog watches, product states, price points and changes round-trip; a watch names one target and goes with its person", async () => {
    const staff = await db().staff.create({
      data: { email: `watch-${Date.now()}@test.local`, name: "W", passwordHash: "$argon2id$x", roles: ["buyer"] },
    });
    const at = new Date("2026-01-02T03:04:05.678Z");
    const watch = await db().catalogWatch.create({
      data: {
        staffId: staff.id,
        key: "product:prd_schema",
        productId: "prd_schema",
        label: "Schema card",
        baselineAt: at,
        createdAt: at,
      },
    });
    expect(await db().catalogWatch.findUniqueOrThrow({ where: { id: watch.id } })).toEqual(watch);
    const group = await db().catalogWatch.create({
      data: {
        staffId: staff.id,
        key: "group:esim||MX",
        workspace: true,
        productType: "esim",
        countryCode: "MX",
        brand: "B",
        label: "eSIMs, MX",
      },
    });
    expect(await db().catalogWatch.findUniqueOrThrow({ where: { id: group.id } })).toEqual(group);
    // A product and a group at once, or a group of a type alone, is no watch.
    await expect(
      db().catalogWatch.create({ data: { staffId: staff.id, key: "x", productId: "p", productType: "esim", label: "x" } }),
    ).rejects.toThrow();
    await expect(
      db().catalogWatch.create({ data: { staffId: staff.id, key: "y", productType: "esim", label: "y" } }),
    ).rejects.toThrow();

    const state = await db().catalogProductState.create({
      data: {
        productId: "prd_schema",
        name: "Schema card",
        productType: "gift-card",
        countryCode: "US",
        category: "Gaming",
        currency: "USD",
        isAvailable: false,
        prices: { var_1: "2500" },
        reference: { var_1: "2450" },
        availabilityChangedAt: at,
        firstSeenAt: at,
        observedAt: at,
      },
    });
    expect(await db().catalogProductState.findUniqueOrThrow({ where: { productId: "prd_schema" } })).toEqual(state);
    const point = await db().catalogPricePoint.create({
      data: { productId: "prd_schema", variantId: "var_1", faceValue: "$25", priceMinor: 2500n, currency: "USD", observedAt: at },
    });
    expect(await db().catalogPricePoint.findUniqueOrThrow({ where: { id: point.id } })).toEqual(point);
    const change = await db().catalogChange.create({
      data: {
        productId: "prd_schema",
        productName: "Schema card",
        productType: "gift-card",
        countryCode: "US",
        change: "price_rise",
        variantLabel: "$25",
        oldPriceMinor: 2450n,
        newPriceMinor: 2500n,
        currency: "USD",
        percent: "2.04",
        detectedAt: at,
        notifiedAt: at,
      },
    });
    expect(await db().catalogChange.findUniqueOrThrow({ where: { id: change.id } })).toEqual(change);
    await expect(
      db().catalogChange.create({
        data: { productId: "p", productName: "p", productType: "esim", countryCode: "US", change: "renamed" },
      }),
    ).rejects.toThrow();

    await db().staff.delete({ where: { id: staff.id } });
    expect(await db().catalogWatch.count({ where: { staffId: staff.id } })).toBe(0);
    await db().catalogChange.delete({ where: { id: change.id } });
    await db().catalogPricePoint.delete({ where: { id: point.id } });
    await db().catalogProductState.delete({ where: { productId: "prd_schema" } });
  });

  test("several instances migrating at once do not collide", async () => {
    const results = await Promise.all([1, 2, 3].map(() => migrate(databaseUrl(), path.resolve("prisma/migrations"))));
    expect(results.every((r) => r.applied.length === 0)).toBe(true);
  });
});
