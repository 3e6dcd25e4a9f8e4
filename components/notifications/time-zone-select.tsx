"use client";

import { useState, type SelectHTMLAttributes } from "react";
import { Select } from "@/components/ui/field";

/**
 * A select of every IANA time zone the browser knows, with `value` kept in the list even if it
 * does not know it. The page comes with the chosen zone as the only option, and the other 400 or
 * so are put in when the person reaches for the select (focus, a press or a key), before its list
 * opens: sent with the page, they were parsed and hydrated on every load for a field seldom
 * changed (docs/decisions/0012-first-load-only-what-is-needed.md). The server checks the zone
 * it is sent (lib/notifications/preference-input.ts), so a zone this browser knows and the
 * server does not gets a field message.
 */
export function TimeZoneSelect({
  value,
  onZone,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange" | "children"> & {
  value: string;
  onZone: (zone: string) => void;
}) {
  const [zones, setZones] = useState<string[] | null>(null);
  const showAll = () => setZones((shown) => shown ?? zonesWith(value));
  return (
    <Select
      {...select}
      value={value}
      onChange={(event) => onZone(event.target.value)}
      onFocus={showAll}
      onPointerDown={showAll}
      onKeyDown={showAll}
    >
      {(zones ?? [value]).map((zone) => (
        <option key={zone} value={zone}>
          {zone}
        </option>
      ))}
    </Select>
  );
}

function zonesWith(current: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone");
  return zones.includes(current) ? zones : [current, ...zones];
}
