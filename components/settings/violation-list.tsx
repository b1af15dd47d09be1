import type { FieldViolation } from "@/lib/gemini/api-error";

/** The server's violations of one node or field, listed under it (`id` for aria-describedby). */
export function ViolationList({
  id,
  violations,
}: {
  id?: string;
  violations: readonly FieldViolation[];
}) {
  if (violations.length === 0) return null;
  return (
    <ul id={id} className="text-xs text-red-700 dark:text-red-400" data-field-error="">
      {violations.map((violation) => (
        <li key={`${violation.field} ${violation.description}`}>{violation.description}</li>
      ))}
    </ul>
  );
}
