import "server-only";
import { logger } from "@/lib/log";
import { readSettings } from "@/lib/settings/get-settings";
import { recordObservations, type Observed } from "./record-observations";

/**
 * What a person's catalog read showed, recorded for the watch at no upstream cost (a cached
 * answer finds nothing new: one query). Never awaited by the page, never fails it.
 */
export function observeCatalog(products: Observed[]): void {
  void readSettings()
    .then((settings) => recordObservations(products, settings.catalogWatchThresholdPercent))
    .catch((error: unknown) =>
      logger.warn("catalog watch: a read was not recorded", { error: error instanceof Error ? error.message : String(error) }),
    );
}
