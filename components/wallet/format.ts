/** A long hash or address kept recognisable: "0x1234ab…89cdef". */
export function shortHash(value: string, keep = 8): string {
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-6)}`;
}
