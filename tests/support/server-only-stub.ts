// In Node tests, server-only modules are imported directly; the real package throws outside React Server Components.
export {};
