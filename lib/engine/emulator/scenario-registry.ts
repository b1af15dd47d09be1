/**
 * The scenarios in force: each caller's own, in registration order, then the instance's (from
 * GENSTUDIO_SCENARIOS), which apply to every caller. A request takes the first scenario that
 * matches and has calls left; a scenario's calls are counted per caller, so parallel suites
 * never use up each other's `times` or sequences. Scenarios live in this process's memory.
 * Matching reads only the scenarios that could apply to the request's operation (an index by
 * operation), so thousands registered stay cheap.
 */
import { randomBytes } from "node:crypto";
import { ApiError } from "@/lib/gemini/api-error";
import type { LinearPattern } from "./linear-pattern";
import { narrowToAnswers } from "./answer-fits";
import { OPERATIONS, operationMatches } from "./operations";
import type { RequestFacts } from "./request-facts";
import type { ScenarioView } from "@/lib/gemini/emulator-types";

export type { ScenarioView } from "@/lib/gemini/emulator-types";
import { AnchorIndex, PIECE, type Anchor } from "./anchor-index";
import {
  invalidFields,
  invalidScenario,
  scenarioSchema,
  type ScenarioInput,
  type ScriptedAnswer,
} from "./scenario-schema";

/** Most scenarios one caller may hold at once. */
export const MAX_SCENARIOS_PER_CALLER = 20_000;

export interface Scenario {
  id: string;
  source: "caller" | "instance";
  /** Order of registration (instance scenarios come after every caller's own). */
  sequence: number;
  input: ScenarioInput;
  answers: ScriptedAnswer[];
  /** Calls it answers in all: `times`, a sequence's length, or unlimited. */
  limit: number;
  test: (facts: RequestFacts) => boolean;
  /** The exact operations it can answer, or null for any. */
  operations: readonly string[] | null;
  /** Text every request it matches contains (its textContains, or its pattern's literal). */
  anchor: Anchor | null;
}

/** What answers a request: the scenario, and which of its answers (a sequence's position). */
export interface ScenarioHit {
  scenario: Scenario;
  answer: ScriptedAnswer;
  call: number;
}

class CallerScenarios {
  readonly list: Scenario[] = [];
  /** Scenarios without an anchor, by operation and for any operation. */
  readonly byOperation = new Map<string, Scenario[]>();
  readonly anyOperation: Scenario[] = [];
  /** Scenarios with an anchor, by where the anchor is looked for and in which case. */
  readonly anchored = new Map<string, AnchorIndex>();
  /** Calls answered per scenario id (the caller's own and the instance's). */
  readonly calls = new Map<string, number>();

  add(scenario: Scenario): void {
    this.list.push(scenario);
    const anchor = scenario.anchor;
    if (anchor && anchor.text.length >= PIECE) {
      const key = anchorKey(anchor.textIn, anchor.lowerCase);
      let index = this.anchored.get(key);
      if (!index) this.anchored.set(key, (index = new AnchorIndex()));
      index.add(scenario, anchor.text);
      return;
    }
    if (scenario.operations === null) this.anyOperation.push(scenario);
    else
      for (const operation of scenario.operations) {
        let bucket = this.byOperation.get(operation);
        if (!bucket) this.byOperation.set(operation, (bucket = []));
        bucket.push(scenario);
      }
  }

  rebuild(scenarios: Scenario[]): void {
    this.list.length = 0;
    this.byOperation.clear();
    this.anyOperation.length = 0;
    this.anchored.clear();
    for (const scenario of scenarios) this.add(scenario);
  }
}

export class ScenarioRegistry {
  private readonly callers = new Map<string, CallerScenarios>();
  private readonly instance = new CallerScenarios();
  private sequence = 0;

  /** `instanceScenarios`: the raw scenarios of GENSTUDIO_SCENARIOS, checked here (throws a 400-style ApiError). */
  constructor(instanceScenarios: unknown[] = []) {
    const listed = { listed: true };
    for (const scenario of compileAll(
      instanceScenarios,
      () => this.nextSequence(),
      "instance",
      listed,
    ))
      this.instance.add(scenario);
  }

  private nextSequence(): number {
    return ++this.sequence;
  }

  private own(ownerId: string): CallerScenarios {
    let scenarios = this.callers.get(ownerId);
    if (!scenarios) this.callers.set(ownerId, (scenarios = new CallerScenarios()));
    return scenarios;
  }

  /**
   * Registers scenarios for a caller, all or none (a bad one is a 400 naming its field; `listed`:
   * they came as a list, so the field is named with the scenario's index).
   */
  register(ownerId: string, inputs: unknown[], listed = inputs.length > 1): ScenarioView[] {
    const own = this.own(ownerId);
    if (own.list.length + inputs.length > MAX_SCENARIOS_PER_CALLER) {
      throw invalidFields([
        {
          field: "scenarios",
          description: `would hold more than ${MAX_SCENARIOS_PER_CALLER} scenarios for this caller; delete some first`,
        },
      ]);
    }
    const compiled = compileAll(inputs, () => this.nextSequence(), "caller", { listed });
    for (const scenario of compiled) own.add(scenario);
    return compiled.map((scenario) => view(scenario, own));
  }

  /** Replaces one of the caller's scenarios in place (its calls start again at 0). */
  replace(ownerId: string, id: string, input: unknown): ScenarioView {
    const own = this.own(ownerId);
    const index = own.list.findIndex((scenario) => scenario.id === id);
    if (index < 0) throw scenarioNotFound(id);
    const [compiled] = compileAll([input], () => own.list[index]!.sequence, "caller", {
      listed: false,
      id,
    });
    const list = [...own.list];
    list[index] = compiled!;
    own.rebuild(list);
    own.calls.delete(id);
    return view(compiled!, own);
  }

  list(ownerId: string): ScenarioView[] {
    const own = this.callers.get(ownerId) ?? new CallerScenarios();
    return [...own.list, ...this.instance.list].map((scenario) => view(scenario, own));
  }

  get(ownerId: string, id: string): ScenarioView {
    const own = this.callers.get(ownerId) ?? new CallerScenarios();
    const scenario =
      own.list.find((item) => item.id === id) ?? this.instance.list.find((item) => item.id === id);
    if (!scenario) throw scenarioNotFound(id);
    return view(scenario, own);
  }

  /** Removes one of the caller's own scenarios; an instance scenario cannot be removed. */
  remove(ownerId: string, id: string): void {
    const own = this.callers.get(ownerId);
    const kept = own?.list.filter((scenario) => scenario.id !== id) ?? [];
    if (!own || kept.length === own.list.length) {
      if (this.instance.list.some((scenario) => scenario.id === id)) {
        throw new ApiError(
          400,
          "FAILED_PRECONDITION",
          `Scenario ${id} comes from GENSTUDIO_SCENARIOS and applies to every caller; it cannot be deleted over HTTP.`,
        );
      }
      throw scenarioNotFound(id);
    }
    own.rebuild(kept);
    own.calls.delete(id);
  }

  /** Removes every scenario of the caller and forgets its counts of the instance's. */
  clear(ownerId: string): void {
    this.callers.delete(ownerId);
  }

  /** True when neither the caller nor the instance has any scenario (the common, free case). */
  isEmpty(ownerId: string): boolean {
    return this.instance.list.length === 0 && !this.callers.get(ownerId)?.list.length;
  }

  /**
   * The first scenario that matches and still has calls for this caller, with the answer for
   * this call; the call is counted. Null when none applies.
   */
  take(ownerId: string, facts: RequestFacts): ScenarioHit | null {
    const own = this.callers.get(ownerId);
    const counts = own ?? this.own(ownerId);
    for (const source of own ? [own, this.instance] : [this.instance]) {
      const hit = firstMatch(
        mergedBySequence(
          source.byOperation.get(facts.operation) ?? [],
          source.anyOperation,
          anchoredCandidates(source, facts),
        ),
        facts,
        counts.calls,
      );
      if (hit) {
        counts.calls.set(hit.scenario.id, hit.call + 1);
        return hit;
      }
    }
    return null;
  }
}

function anchorKey(textIn: Anchor["textIn"], lowerCase: boolean): string {
  return `${textIn}:${lowerCase ? "lower" : "exact"}`;
}

/** The anchored scenarios whose anchor piece occurs in the request's text, in registration order. */
function anchoredCandidates(source: CallerScenarios, facts: RequestFacts): Scenario[] {
  if (source.anchored.size === 0) return [];
  const found = new Set<Scenario>();
  for (const textIn of ["lastUserTurn", "anywhere"] as const) {
    for (const lowerCase of [false, true]) {
      const index = source.anchored.get(anchorKey(textIn, lowerCase));
      if (!index) continue;
      const text = textIn === "anywhere" ? facts.allText() : facts.lastUserText();
      index.candidates(lowerCase ? text.toLowerCase() : text, found);
    }
  }
  return [...found].sort((left, right) => left.sequence - right.sequence);
}

/** Lists each in registration order, merged into one in that order. */
function mergedBySequence(...lists: ReadonlyArray<readonly Scenario[]>): Scenario[] {
  const filled = lists.filter((list) => list.length > 0);
  if (filled.length <= 1) return (filled[0] ?? []) as Scenario[];
  return filled.flat().sort((left, right) => left.sequence - right.sequence);
}

/** The first scenario of `candidates` (in registration order) that matches and has calls left. */
function firstMatch(
  candidates: readonly Scenario[],
  facts: RequestFacts,
  calls: ReadonlyMap<string, number>,
): ScenarioHit | null {
  for (const scenario of candidates) {
    const call = calls.get(scenario.id) ?? 0;
    if (call >= scenario.limit || !scenario.test(facts)) continue;
    const answer = scenario.answers[Math.min(call, scenario.answers.length - 1)]!;
    return { scenario, answer, call };
  }
  return null;
}

/** A compile-time refusal of the index-th scenario of a list, its field named with the index. */
function prefixed(error: unknown, index: number): unknown {
  if (!(error instanceof ApiError)) return error;
  const badRequest = error.details?.find(
    (detail) => detail["@type"] === "type.googleapis.com/google.rpc.BadRequest",
  );
  if (!badRequest || !("fieldViolations" in badRequest)) return error;
  return invalidFields(
    badRequest.fieldViolations.map((violation) => ({
      field: `[${index}].${violation.field}`,
      description: violation.description,
    })),
  );
}

function scenarioNotFound(id: string): ApiError {
  return ApiError.notFound(`Scenario ${id.slice(0, 80)} does not exist (or is not yours).`);
}

function view(scenario: Scenario, own: CallerScenarios): ScenarioView {
  const calls = own.calls.get(scenario.id) ?? 0;
  return {
    id: scenario.id,
    source: scenario.source,
    ...(scenario.input.name !== undefined ? { name: scenario.input.name } : {}),
    match: scenario.input.match ?? {},
    respond: scenario.input.respond,
    ...(scenario.input.times !== undefined ? { times: scenario.input.times } : {}),
    calls,
    ...(Number.isFinite(scenario.limit) ? { remaining: Math.max(0, scenario.limit - calls) } : {}),
  };
}

/** Checks every input first, so a bad one registers nothing. */
function compileAll(
  inputs: unknown[],
  sequence: () => number,
  source: Scenario["source"],
  options: { listed: boolean; id?: string },
): Scenario[] {
  const parsed: ScenarioInput[] = inputs.map((input, index) => {
    const result = scenarioSchema.safeParse(input);
    if (!result.success) throw invalidScenario(result.error, options.listed ? [index] : []);
    return result.data;
  });
  return parsed.map((input, index) => {
    try {
      return compile(input, sequence(), source, options.id);
    } catch (error) {
      throw options.listed ? prefixed(error, index) : error;
    }
  });
}

/**
 * The raw JSON as it was sent, for listing: the schema turns `textMatches` into its matcher,
 * so the view keeps the pattern's source.
 */
function displayMatch(input: ScenarioInput): ScenarioInput {
  if (!input.match?.textMatches) return input;
  const pattern = input.match.textMatches as unknown as LinearPattern;
  return {
    ...input,
    match: { ...input.match, textMatches: pattern.source as unknown as LinearPattern },
  };
}

function compile(
  parsedInput: ScenarioInput,
  sequence: number,
  source: Scenario["source"],
  id?: string,
): Scenario {
  const match = parsedInput.match ?? {};
  const input = displayMatch(parsedInput);
  const answers = Array.isArray(input.respond) ? input.respond : [input.respond];
  const named = match.operation === undefined ? null : [match.operation].flat();
  let operations: readonly string[] | null = named
    ? OPERATIONS.filter((operation) => named.some((name) => operationMatches(name, operation)))
    : null;
  operations = narrowToAnswers(answers, named, operations);
  const model = match.model?.replace(/^models\//, "");
  const pattern = match.textMatches;
  const headers = Object.entries(match.headers ?? {}).map(
    ([name, value]) => [name.toLowerCase(), value] as const,
  );
  const textOf = (facts: RequestFacts) =>
    match.textIn === "anywhere" ? facts.allText() : facts.lastUserText();
  const operationSet = operations ? new Set(operations) : null;
  const test = (facts: RequestFacts): boolean =>
    (operationSet === null || operationSet.has(facts.operation)) &&
    (model === undefined || facts.model === model) &&
    (match.hasTools === undefined || facts.hasTools === match.hasTools) &&
    (match.functionName === undefined || facts.functionNames.has(match.functionName)) &&
    headers.every(([name, value]) => facts.header(name) === value) &&
    (match.textContains === undefined || textOf(facts).includes(match.textContains)) &&
    (pattern === undefined || pattern.test(textOf(facts)));
  const textIn = match.textIn ?? "lastUserTurn";
  const anchor: Anchor | null =
    match.textContains !== undefined
      ? { text: match.textContains, textIn, lowerCase: false }
      : pattern && pattern.literal
        ? { text: pattern.literal, textIn, lowerCase: pattern.ignoreCase }
        : null;
  return {
    id: id ?? `scn_${randomBytes(6).toString("hex")}`,
    source,
    sequence,
    input,
    answers,
    anchor,
    limit: Array.isArray(input.respond)
      ? input.respond.length
      : (input.times ?? Number.POSITIVE_INFINITY),
    test,
    operations,
  };
}
