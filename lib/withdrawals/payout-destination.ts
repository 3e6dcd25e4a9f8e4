/**
 * Where a withdrawal goes: the Issuing Service pays only to the payout details registered on the
 * workspace, and its API never names them, so an admin names them in Settings
 * (`payoutDetailsName`). Unnamed, an approver cannot see where the money goes, so no withdrawal
 * is approved: the card's disabled button and the server's 409 say the same words.
 */
export const UNNAMED_DESTINATION =
  "It cannot be approved until an admin names the payout details it is paid to, in Settings (Payout details registered with the Issuing Service).";

export function destinationNamed(payoutDetailsName: string): boolean {
  return payoutDetailsName.trim() !== "";
}
