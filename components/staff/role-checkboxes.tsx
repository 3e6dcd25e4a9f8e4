import { ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS } from "@/lib/auth/permissions";
import { FIELD_ERROR } from "@/components/ui/field";

export function RoleCheckboxes({
  name,
  selected,
  onChange,
  error,
  idPrefix,
  legend = "Roles",
  disabled = false,
}: {
  legend?: string;
  disabled?: boolean;
  name: string;
  selected: string[];
  onChange: (roles: string[]) => void;
  error?: string[];
  idPrefix: string;
}) {
  return (
    <fieldset aria-describedby={error?.length ? `${idPrefix}-roles-error` : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 grid gap-2 sm:grid-cols-2">
        {ROLES.map((role) => (
          <label key={role} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name={name}
              value={role}
              className="mt-0.5"
              disabled={disabled}
              checked={selected.includes(role)}
              onChange={(e) => onChange(e.target.checked ? [...selected, role] : selected.filter((r) => r !== role))}
            />
            <span>
              <span className="font-medium">{ROLE_LABELS[role]}</span>
              <span className="block text-xs text-slate-500">{ROLE_DESCRIPTIONS[role]}</span>
            </span>
          </label>
        ))}
      </div>
      {error?.length ? (
        <p id={`${idPrefix}-roles-error`} className={`mt-1 ${FIELD_ERROR}`} data-testid="error-roles">
          {error.join(" ")}
        </p>
      ) : null}
    </fieldset>
  );
}
