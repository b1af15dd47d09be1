import "server-only";
import { ApiError } from "@/lib/gemini/api-error";

/**
 * The filters of a studio report's query string (usage, request logs, the audit log), read
 * once against a list of what each may be: a parameter that is not on the list, given twice,
 * or of the wrong form is the service's 400 naming it; nothing is silently ignored.
 */

export type FilterSpec =
  | { kind: "day" }
  | { kind: "time" }
  | { kind: "text"; max: number }
  | { kind: "integer"; min: number; max: number }
  | { kind: "choice"; values: readonly string[] };

type Value<Spec extends FilterSpec> = Spec extends { kind: "integer" } | { kind: "time" }
  ? number
  : string;

export type Filters<Specs extends Record<string, FilterSpec>> = {
  [Name in keyof Specs]?: Value<Specs[Name]>;
};

function bad(field: string, description: string): ApiError {
  return ApiError.invalidArgument(`Invalid value for ${field}: ${description}.`, [
    { field, description },
  ]);
}

function readOne(field: string, raw: string, spec: FilterSpec): string | number {
  switch (spec.kind) {
    case "day": {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) throw bad(field, "a day as YYYY-MM-DD");
      const time = Date.parse(`${raw}T00:00:00Z`);
      if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== raw)
        throw bad(field, "a day as YYYY-MM-DD");
      return raw;
    }
    case "time": {
      const time = /^\d{1,15}$/.test(raw) ? Number(raw) : Date.parse(raw);
      if (!Number.isFinite(time) || !/^[\dT:.Z+-]+$/.test(raw))
        throw bad(field, "a time as RFC 3339 (2025-06-01T12:00:00Z) or epoch milliseconds");
      return time;
    }
    case "text":
      if (raw.length === 0 || raw.length > spec.max)
        throw bad(field, `between 1 and ${spec.max} characters`);
      return raw;
    case "integer": {
      if (!/^-?\d{1,15}$/.test(raw)) throw bad(field, "a whole number");
      const value = Number(raw);
      if (value < spec.min || value > spec.max)
        throw bad(field, `between ${spec.min} and ${spec.max}`);
      return value;
    }
    case "choice":
      if (!spec.values.includes(raw)) throw bad(field, `one of ${spec.values.join(", ")}`);
      return raw;
  }
}

export function readFilters<Specs extends Record<string, FilterSpec>>(
  url: URL,
  specs: Specs,
): Filters<Specs> {
  const filters: Record<string, string | number> = {};
  for (const [name, raw] of url.searchParams) {
    const field = name.slice(0, 64);
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) throw bad(field, `not a filter here (filters: ${Object.keys(specs).join(", ")})`);
    if (Object.hasOwn(filters, name)) throw bad(field, "given more than once");
    if (raw === "") continue;
    filters[name] = readOne(field, raw, spec);
  }
  return filters as Filters<Specs>;
}
