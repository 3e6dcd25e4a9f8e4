import localFont from "next/font/local";

/**
 * Inter, from the @fontsource-variable/inter package, through next/font. `optional` means it is
 * used only if it is there for the first paint; text never changes font, and so never moves, once
 * shown. It is not preloaded: on a slow phone connection its 49 KB came before the page's own
 * text (Lighthouse mobile, /orders: LCP 2.66 s with the preload, 1.72 s and 0.88 s without), so a
 * first visit may be drawn in the system's sans-serif and later ones, from the cache, in Inter. With the package's own CSS (swap), the
 * late font re-laid text out: Lighthouse CLS 0.088 on /settings, "Web font loaded". Latin and
 * Latin Extended (the ranges of the package's files); other scripts are drawn by the system's
 * sans-serif, as they were before the font arrived.
 */
export const inter = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2",
  weight: "100 900",
  display: "optional",
  // No metric-matched stand-in: with `optional` the page never swaps fonts, and one in the
  // stack would take the Latin Extended letters before Inter's own file below.
  adjustFontFallback: false,
  variable: "--font-inter",
  preload: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
    },
  ],
});

export const interExtended = localFont({
  src: "../node_modules/@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2",
  weight: "100 900",
  display: "optional",
  adjustFontFallback: false,
  variable: "--font-inter-ext",
  preload: false,
  declarations: [
    {
      prop: "unicode-range",
      value:
        "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF",
    },
  ],
});
