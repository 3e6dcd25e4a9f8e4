// Fixed ingredients of the demo catalog. All brand and operator names are invented.

export type Country = { code: string; name: string; currency: string; unitsPerUsd: number };

export const COUNTRIES: readonly Country[] = [
  { code: "US", name: "United States", currency: "USD", unitsPerUsd: 1 },
  { code: "CA", name: "Canada", currency: "CAD", unitsPerUsd: 1.36 },
  { code: "MX", name: "Mexico", currency: "MXN", unitsPerUsd: 17 },
  { code: "BR", name: "Brazil", currency: "BRL", unitsPerUsd: 5 },
  { code: "AR", name: "Argentina", currency: "ARS", unitsPerUsd: 900 },
  { code: "CO", name: "Colombia", currency: "COP", unitsPerUsd: 3900 },
  { code: "CL", name: "Chile", currency: "CLP", unitsPerUsd: 950 },
  { code: "PE", name: "Peru", currency: "PEN", unitsPerUsd: 3.75 },
  { code: "GB", name: "United Kingdom", currency: "GBP", unitsPerUsd: 0.79 },
  { code: "IE", name: "Ireland", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "FR", name: "France", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "DE", name: "Germany", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "ES", name: "Spain", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "IT", name: "Italy", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "NL", name: "Netherlands", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "BE", name: "Belgium", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "PT", name: "Portugal", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "AT", name: "Austria", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "FI", name: "Finland", currency: "EUR", unitsPerUsd: 0.92 },
  { code: "PL", name: "Poland", currency: "PLN", unitsPerUsd: 4 },
  { code: "SE", name: "Sweden", currency: "SEK", unitsPerUsd: 10.5 },
  { code: "NO", name: "Norway", currency: "NOK", unitsPerUsd: 10.6 },
  { code: "DK", name: "Denmark", currency: "DKK", unitsPerUsd: 6.9 },
  { code: "CH", name: "Switzerland", currency: "CHF", unitsPerUsd: 0.88 },
  { code: "CZ", name: "Czechia", currency: "CZK", unitsPerUsd: 23 },
  { code: "RO", name: "Romania", currency: "RON", unitsPerUsd: 4.6 },
  { code: "TR", name: "Türkiye", currency: "TRY", unitsPerUsd: 32 },
  { code: "AE", name: "United Arab Emirates", currency: "AED", unitsPerUsd: 3.67 },
  { code: "SA", name: "Saudi Arabia", currency: "SAR", unitsPerUsd: 3.75 },
  { code: "EG", name: "Egypt", currency: "EGP", unitsPerUsd: 48 },
  { code: "NG", name: "Nigeria", currency: "NGN", unitsPerUsd: 1500 },
  { code: "KE", name: "Kenya", currency: "KES", unitsPerUsd: 130 },
  { code: "ZA", name: "South Africa", currency: "ZAR", unitsPerUsd: 18.5 },
  { code: "IN", name: "India", currency: "INR", unitsPerUsd: 83 },
  { code: "PK", name: "Pakistan", currency: "PKR", unitsPerUsd: 280 },
  { code: "BD", name: "Bangladesh", currency: "BDT", unitsPerUsd: 110 },
  { code: "ID", name: "Indonesia", currency: "IDR", unitsPerUsd: 15800 },
  { code: "PH", name: "Philippines", currency: "PHP", unitsPerUsd: 56 },
  { code: "VN", name: "Vietnam", currency: "VND", unitsPerUsd: 25000 },
  { code: "TH", name: "Thailand", currency: "THB", unitsPerUsd: 36 },
  { code: "MY", name: "Malaysia", currency: "MYR", unitsPerUsd: 4.7 },
  { code: "SG", name: "Singapore", currency: "SGD", unitsPerUsd: 1.35 },
  { code: "JP", name: "Japan", currency: "JPY", unitsPerUsd: 150 },
  { code: "KR", name: "South Korea", currency: "KRW", unitsPerUsd: 1350 },
  { code: "AU", name: "Australia", currency: "AUD", unitsPerUsd: 1.52 },
  { code: "NZ", name: "New Zealand", currency: "NZD", unitsPerUsd: 1.65 },
];

export const UNITS_PER_USD: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79 };

const EUROPE = new Set(["IE", "FR", "DE", "ES", "IT", "NL", "BE", "PT", "AT", "FI", "PL", "SE", "NO", "DK", "CH", "CZ", "RO"]);

// The workspace sells in three currencies: GBP in the UK, EUR elsewhere in Europe, USD everywhere else.
export function sellCurrencyFor(countryCode: string): string {
  if (countryCode === "GB") return "GBP";
  return EUROPE.has(countryCode) ? "EUR" : "USD";
}

export type Brand = { name: string; category: string; withPin: boolean };

export const BRANDS: readonly Brand[] = [
  { name: "Northwind Books", category: "Books", withPin: false },
  { name: "Pixel Arcade", category: "Gaming", withPin: true },
  { name: "Blue Harbor Coffee", category: "Food & Drink", withPin: false },
  { name: "Streamline TV", category: "Entertainment", withPin: false },
  { name: "Summit Outdoor", category: "Sports & Outdoor", withPin: false },
  { name: "Urban Threads", category: "Fashion", withPin: false },
  { name: "CinemaPlus", category: "Entertainment", withPin: true },
  { name: "Melody Stream", category: "Music", withPin: false },
  { name: "Gamer's Vault", category: "Gaming", withPin: true },
  { name: "Fresh Basket", category: "Groceries", withPin: false },
  { name: "TravelNest", category: "Travel", withPin: false },
  { name: "Bright Home", category: "Home", withPin: false },
  { name: "Voltage Electronics", category: "Electronics", withPin: true },
  { name: "Petal & Stem", category: "Gifts", withPin: false },
  { name: "Quest Play Points", category: "Gaming", withPin: true },
  { name: "Lumen App Store", category: "Apps", withPin: false },
  { name: "Harbor Spa", category: "Wellness", withPin: false },
  { name: "RideNow", category: "Transport", withPin: false },
  { name: "FeastFleet Delivery", category: "Food & Drink", withPin: false },
  { name: "CloudDrive Storage", category: "Apps", withPin: false },
];

export const ESIM_PROVIDERS: readonly string[] = ["Roamly", "SkyLink Data"];

// [label, face value in USD cents]
export const ESIM_PLANS: readonly (readonly [string, number])[] = [
  ["1 GB · 7 days", 450],
  ["3 GB · 15 days", 900],
  ["5 GB · 30 days", 1300],
  ["10 GB · 30 days", 2000],
  ["20 GB · 30 days", 3200],
];

export const OPERATORS: readonly string[] = ["Nova Mobile", "Orbit Telecom", "Pulse Cellular", "Zenith Wireless", "Wave Connect"];

export const GIFT_CARD_DENOMINATIONS: readonly number[] = [10, 25, 50, 100];
export const TOP_UP_BUNDLES: readonly number[] = [5, 10, 20, 50];
