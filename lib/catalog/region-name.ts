const regions = new Intl.DisplayNames(["en"], { type: "region" });

/** "GB" → "United Kingdom"; an unknown code as given. One DisplayNames for every caller (building one per card cost more than the card). */
export function regionName(code: string): string {
  try {
    return regions.of(code) ?? code;
  } catch {
    return code; // not a well-formed region code
  }
}
