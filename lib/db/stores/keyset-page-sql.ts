import type { KeysetPosition } from "@/lib/gemini/page-token";

/**
 * The SQL of one keyset page, as both databases read it: a row-value comparison on
 * `(create_time, id)` that the lists' indexes serve, the order, and the limit. A store writes
 * its own selection and appends `condition` (empty on the first page) and `order`, with
 * `params` after its own.
 */
export function keysetPageSql(
  after: KeysetPosition | null,
  limit: number,
  {
    direction = "newest first",
    table = "",
  }: { direction?: "newest first" | "oldest first"; table?: string } = {},
): { condition: string; order: string; params: (number | string)[] } {
  const columns = `(${table}create_time, ${table}id)`;
  const newestFirst = direction === "newest first";
  const order = newestFirst
    ? `ORDER BY ${table}create_time DESC, ${table}id DESC LIMIT ?`
    : `ORDER BY ${table}create_time, ${table}id LIMIT ?`;
  if (!after) return { condition: "", order, params: [limit] };
  return {
    condition: ` AND ${columns} ${newestFirst ? "<" : ">"} (?, ?)`,
    order,
    params: [after.createTime, after.id, limit],
  };
}
