/**
 * The request header in which scripts/serve-app.mjs passes the socket's peer address to
 * the app (Next exposes no socket to handlers). The server always overwrites it, so a
 * client cannot choose it; the name is repeated in that script, which cannot import this.
 */
export const PEER_ADDRESS_HEADER = "x-backoffice-peer-address";
