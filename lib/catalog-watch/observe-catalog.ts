import "server-only";
import { serviceConfig } from "@/lib/env";
import { logger } from "@/lib/log";
import { readSettings } from "@/lib/settings/get-settings";
import { recordObservations, type Observed } from "./record-observations";

/**
 * What a person's catalog read showed, recorded for the watch at no upstream cost (a cached
 * answer finds nothing new: one query). The answer may be as old as the catalog cache keeps
 * answers. Never awaited by the page, never fails it.
 */
export function observeCatalog(products: Observed[]): void {
  void readSettings()
    .then((settings) =>
      recordObservations(products, settings.catalogWatchThresholdPercent, { maxAgeMs: serviceConfig().catalogTtlMs }),
    )
    .catch((error: unknown) =>
      logger.warn("catalog watch: a read was not recorded", { error: error instanceof Error ? error.message : String(error) }),
    );
}
