/** Whether a bind host or peer address is on this machine only. */
export function isLoopbackHost(host: string): boolean {
  const value = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  return (
    value === "localhost" ||
    value === "::1" ||
    value === "::ffff:127.0.0.1" ||
    /^127(\.\d{1,3}){3}$/.test(value) ||
    /^::ffff:127(\.\d{1,3}){3}$/.test(value)
  );
}
