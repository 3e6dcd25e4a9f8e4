/**
 * The request header in which the app server's edge (lib/edge/serve.ts) passes the socket's
 * peer address to the app (Next exposes no socket to handlers). The edge always overwrites it,
 * so a client cannot choose it.
 */
export const PEER_ADDRESS_HEADER = "x-backoffice-peer-address";
