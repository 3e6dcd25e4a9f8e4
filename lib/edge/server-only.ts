// `server-only` as lib/edge's module graph sees it (lib/edge/tsconfig.json): this graph runs only
// in the app server, so the guard has nothing to guard.
export {};
