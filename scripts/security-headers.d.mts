export const SECURITY_HEADERS: { key: string; value: string }[];
export function freshContentSecurityPolicy(mode: { dev: boolean }): string;
