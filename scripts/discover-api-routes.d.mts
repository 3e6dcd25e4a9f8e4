export declare const HTTP_METHODS: string[];
export type ApiRoute = { pattern: string; methods: string[]; file: string };
export declare function discoverApiRoutes(root?: string): ApiRoute[];
export declare function exportedMethods(source: string): string[];
