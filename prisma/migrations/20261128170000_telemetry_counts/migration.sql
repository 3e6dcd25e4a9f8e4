-- Telemetry's event counters (issue 52): orders placed and failed, reveals, sign-in failures,
-- lock-outs, upstream calls. Every process adds its counts to the shared rows, so /metrics and
-- the OTLP export read one whole answer for the app, whichever process is asked.
CREATE TABLE "TelemetryCount" (
    "name" TEXT NOT NULL,
    "labels" TEXT NOT NULL,
    "value" BIGINT NOT NULL DEFAULT 0,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TelemetryCount_pkey" PRIMARY KEY ("name","labels")
);
