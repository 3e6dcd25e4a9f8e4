import "server-only";
import { db, Prisma } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/auth/password";
import { assertStrongPassword } from "@/lib/auth/password-strength";
import { recordAudit, type AuditEntry } from "@/lib/audit/record";
import { parseInput } from "@/lib/validation";
import { createStaffSchema } from "./schemas";
import { toStaffView, type StaffView } from "./staff-view";

/**
 * The deployment's operator creates an account with a password from the command line (the
 * first admin of a deployment, or local mode's demo accounts). Audited as the system, not as a
 * person. In the app an admin never types someone's password: they invite
 * (access-links/invite-staff.ts) and the person sets it.
 */
export async function createStaffAsOperator(input: unknown, source: "cli" | "demo-seed"): Promise<StaffView> {
  return insertStaff(input, { email: `system:${source}` });
}

async function insertStaff(input: unknown, auditActor: AuditEntry["actor"]): Promise<StaffView> {
  const data = parseInput(createStaffSchema, input);
  await assertStrongPassword(data.password, data);
  const passwordHash = await hashPassword(data.password);
  try {
    return await db().$transaction(async (tx) => {
      const staff = await tx.staff.create({ data: { email: data.email, name: data.name, roles: data.roles, passwordHash } });
      await recordAudit(tx, {
        action: "staff.create",
        actor: auditActor,
        targetId: staff.id,
        details: { email: staff.email, roles: staff.roles },
      });
      return toStaffView(staff);
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new AppError("email_taken", "Someone already uses this email address.", {
        fieldErrors: { email: ["Someone already uses this email address."] },
      });
    }
    throw error;
  }
}
