import type { Config } from "tailwindcss";

// Tailwind 4 reads this through `@config` in app/globals.css; the theme lives here so
// that the palette has one home.
export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      fontFamily: { sans: ["var(--font-inter)", "var(--font-inter-ext)", "ui-sans-serif", "system-ui", "sans-serif"] },
      colors: {
        brand: { 50: "#eef4ff", 100: "#dbe6fe", 500: "#3b6cf6", 600: "#2452e0", 700: "#1c41b4", 900: "#172a63" },
      },
    },
  },
} satisfies Config;
