import type { MetadataRoute } from "next";

/** A back-office is nobody's search result: every crawler is asked to stay out. */
export default function robots(): MetadataRoute.Robots {
  return { rules: { userAgent: "*", disallow: "/" } };
}
