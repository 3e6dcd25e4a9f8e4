export const SECURITY_HEADERS: { key: string; value: string }[];
export function contentSecurityPolicy(nonce: string, mode: { dev: boolean }): string;
export function freshContentSecurityPolicy(mode: { dev: boolean }): string;
