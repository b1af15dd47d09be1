/**
 * What the gateway must know of an Interactions create body, and all it models of it: whether
 * the answer is a stream, whether the upstream keeps the interaction (so its owner is worth
 * recording), and which interaction it continues (to check it is the caller's). Read as a
 * forwarding read (lib/gemini/forwarding-read), so every other field is unknown to it, tolerated,
 * and looked through for the resources it names; the body goes upstream as it came.
 */
import { runSchema } from "../validate";
import { wireBoolean, wireObject, wireString } from "../schemas/wire";

export interface InteractionEnvelope {
  stream?: boolean;
  store?: boolean;
  background?: boolean;
  previousInteractionId?: string;
}

const envelopeSchema = wireObject("CreateInteractionRequest", {
  stream: wireBoolean().optional(),
  store: wireBoolean().optional(),
  background: wireBoolean().optional(),
  previousInteractionId: wireString().optional(),
});

export function readInteractionEnvelope(body: unknown): InteractionEnvelope {
  return runSchema(envelopeSchema, body ?? {}, {
    requestName: "CreateInteractionRequest",
  }) as InteractionEnvelope;
}
