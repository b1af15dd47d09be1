/**
 * What the gateway must know of a body of the OpenAI-compatible endpoint, and all it models of
 * it: the model it calls (a managed key's limits name models) and whether the answer streams.
 * Read as a forwarding read (lib/gemini/forwarding-read), so every other field is unknown to
 * it, tolerated, and looked through for the resources it names; the body goes upstream as it
 * came. The local engine reads the whole body strictly (validate-openai.ts).
 */
import { runSchema } from "../validate";
import { wireBoolean, wireObject, wireString } from "../schemas/wire";

export interface OpenAIEnvelope {
  model?: string;
  stream?: boolean;
}

const envelopeSchema = wireObject("OpenAIRequest", {
  model: wireString().optional(),
  stream: wireBoolean().optional(),
});

export function readOpenAIEnvelope(body: unknown): OpenAIEnvelope {
  return runSchema(envelopeSchema, body ?? {}, { requestName: "OpenAIRequest" }) as OpenAIEnvelope;
}
