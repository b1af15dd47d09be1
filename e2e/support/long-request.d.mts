/** Types of long-request.mjs. */
export const OUTPUT_LIMIT_REQUEST: {
  contents: { parts: { text: string }[] }[];
  generationConfig: Record<string, unknown>;
};
