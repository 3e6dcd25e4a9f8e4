import type { Staff } from "@/lib/db/generated/client";
import { FACTOR_DESCRIPTIONS, SECOND_FACTOR_KINDS, type SecondFactorKind } from "@/lib/auth/second-factor/kinds";

/** What the app shows of a staff member: never the password hash. */
export type StaffView = {
  id: string;
  email: string;
  name: string;
  roles: string[];
  active: boolean;
  createdAt: string;
  /** Their spend requests waiting for an approver: deactivating them cancels these. */
  waitingSpendRequests: number;
  /** Their confirmed second factors by kind (never a secret): what the Staff page shows. */
  secondFactors: Record<SecondFactorKind, number>;
  /** Whether the second-factor policy covers one of their roles: "None" then reads "Required – not set up". */
  secondFactorRequired: boolean;
};

export function toStaffView(
  staff: Staff,
  waitingSpendRequests = 0,
  secondFactors = countFactors(() => 0),
  secondFactorRequired = false,
): StaffView {
  return {
    id: staff.id,
    email: staff.email,
    name: staff.name,
    roles: staff.roles,
    active: staff.active,
    createdAt: staff.createdAt.toISOString(),
    waitingSpendRequests,
    secondFactors,
    secondFactorRequired,
  };
}

/** A person's confirmed factors of each kind, from a count by kind. */
export function countFactors(count: (kind: SecondFactorKind) => number): StaffView["secondFactors"] {
  return Object.fromEntries(SECOND_FACTOR_KINDS.map((kind) => [kind, count(kind)])) as StaffView["secondFactors"];
}

/** "Authenticator app and 2 passkeys": the kinds of second factor a person has, or "" with none. */
export function secondFactorsInWords(person: Pick<StaffView, "secondFactors">): string {
  return SECOND_FACTOR_KINDS.filter((kind) => person.secondFactors[kind] > 0)
    .map((kind) => FACTOR_DESCRIPTIONS[kind].counted(person.secondFactors[kind]))
    .join(" and ");
}

/** What the confirmation before a deactivation says will happen. */
export function deactivationConsequences(person: Pick<StaffView, "waitingSpendRequests">): string {
  const waiting = person.waitingSpendRequests;
  const requests =
    waiting === 0 ? "" : ` ${waiting} waiting spend request${waiting === 1 ? "" : "s"} will be cancelled and never placed.`;
  return `Their sessions end at once and they can no longer sign in.${requests} You can reactivate them later.`;
}
