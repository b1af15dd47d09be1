/**
 * Thought signatures in recorded requests: which answer made each one, and how long that answer
 * thought (its `thoughtsTokenCount`), learned from every recorded answer at once. The service
 * counts a signature of the current turn by what only it can decrypt; the replay uses these
 * figures to tell that difference apart from every other (allow-rules.mjs).
 */

/** Signatures compared by their bytes: the Python SDK sends them base64url, the service base64. */
function normalised(signature) {
  return signature.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
}

/** Every stream event or the one JSON answer of a parsed recorded answer. */
function answerValues(answer) {
  return answer.events ?? (answer.json ? [answer.json] : []);
}

/**
 * Maps each signature of the recorded answers (`parsed`: [exchange, parsed answer] pairs) to the
 * thinking of the answer that made it.
 */
export function learnSignatures(parsed) {
  const thinking = new Map();
  for (const [, answer] of parsed) {
    const signatures = [];
    let thoughts = 0;
    for (const value of answerValues(answer)) {
      const usage = value?.usageMetadata;
      if (usage && (usage.promptTokenCount !== undefined || usage.thoughtsTokenCount !== undefined))
        thoughts = usage.thoughtsTokenCount ?? 0;
      for (const candidate of value?.candidates ?? [])
        for (const part of candidate?.content?.parts ?? [])
          if (typeof part.thoughtSignature === "string")
            signatures.push(normalised(part.thoughtSignature));
    }
    for (const signature of signatures) thinking.set(signature, thoughts);
  }
  return thinking;
}

function isFunctionResponse(part) {
  return Boolean(part && (part.functionResponse || part.function_response));
}

/**
 * The signatures of a request's current turn (from its last user Content without a function
 * response on) and what the recordings say they stand for: `count`, the `thinking` of the
 * answers that made them (once per answer), whether an answer is not recorded (`unknown`), and
 * `callArguments`, the arguments of the function calls they sit on (a 2.5 engine counts a token
 * for each; see lib/engine/README.md, "A 2.5 call's tokens").
 */
export function currentTurnSignatures(requestBody, learned) {
  const contents = Array.isArray(requestBody?.contents) ? requestBody.contents : [];
  let start = 0;
  contents.forEach((content, index) => {
    const parts = Array.isArray(content?.parts) ? content.parts : [];
    if (content?.role !== "model" && !parts.some(isFunctionResponse)) start = index;
  });
  const result = { count: 0, thinking: 0, unknown: false, callArguments: 0 };
  const counted = new Set();
  for (const content of contents.slice(start)) {
    for (const part of Array.isArray(content?.parts) ? content.parts : []) {
      const signature = part?.thoughtSignature ?? part?.thought_signature;
      if (typeof signature !== "string") continue;
      result.count += 1;
      const args = (part.functionCall ?? part.function_call)?.args;
      if (args && typeof args === "object") result.callArguments += Object.keys(args).length;
      const key = normalised(signature);
      if (!learned.has(key)) result.unknown = true;
      else if (!counted.has(key)) {
        counted.add(key);
        result.thinking += learned.get(key);
      }
    }
  }
  return result;
}
