import localFont from "next/font/local";

/**
 * Inter, from the @fontsource-variable/inter package, through next/font. `optional`: used only if
 * it is there for the first paint, so text never changes font, and never moves, once shown. Not
 * preloaded: on a slow phone its bytes came before the page's text, so a first visit may be drawn
 * in the system's sans-serif (docs/decisions/0011-font-optional-and-not-preloaded.md). Latin and
 * Latin Extended only; other scripts are drawn by the system's sans-serif.
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
