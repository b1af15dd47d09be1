/**
 * Code execution (`tools: [{codeExecution: {}}]`) in the local engine: for a simple arithmetic
 * or data question the engine writes Python (from a fixed template and the prompt's numbers and
 * operators only), runs it in the sandbox (python-sandbox.ts) and answers with the service's
 * parts: `executableCode {language: PYTHON, code}`, then `codeExecutionResult {outcome,
 * output}`, then text that states the result. Any other prompt is answered without code, as the
 * service may choose to. Knowingly different: the service's model writes any code it likes;
 * here only arithmetic, sum/mean/median/min/max/sort/standard deviation of a list, primality and
 * factorials are recognised.
 */
import { runPython, type SandboxOptions, type SandboxResult } from "./python-sandbox";

export interface CodePlan {
  code: string;
  /** The answer's text once the output is known. */
  describe(output: string): string;
}

const WORD_OPERATORS: [string[], string][] = [
  [["to", "the", "power", "of"], "**"],
  [["multiplied", "by"], "*"],
  [["divided", "by"], "/"],
  [["plus"], "+"],
  [["minus"], "-"],
  [["times"], "*"],
  [["modulo"], "%"],
  [["mod"], "%"],
];

type Token =
  { kind: "number"; text: string } | { kind: "operator" | "open" | "close"; text: string };

/** The prompt as tokens: numbers, operators and parentheses; null stands for anything else. */
function tokenize(text: string): (Token | null)[] {
  const tokens: (Token | null)[] = [];
  const words: string[] = [];
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    if (/[0-9]/.test(character)) {
      let end = index;
      while (end < text.length && /[0-9]/.test(text[end]!)) end++;
      if (text[end] === "." && /[0-9]/.test(text[end + 1] ?? "")) {
        end++;
        while (end < text.length && /[0-9]/.test(text[end]!)) end++;
      }
      tokens.push({ kind: "number", text: text.slice(index, end) });
      words.length = 0;
      index = end;
      continue;
    }
    if (/[A-Za-z]/.test(character)) {
      let end = index;
      while (end < text.length && /[A-Za-z]/.test(text[end]!)) end++;
      words.push(text.slice(index, end).toLowerCase());
      index = end;
      const phrase = WORD_OPERATORS.find(
        ([parts]) =>
          words.length >= parts.length &&
          parts.every((part, at) => words[words.length - parts.length + at] === part),
      );
      if (phrase) {
        // The phrase's first words were pushed as nulls; they become one operator.
        tokens.splice(tokens.length - (phrase[0].length - 1), phrase[0].length - 1);
        tokens.push({ kind: "operator", text: phrase[1] });
        words.length = 0;
      } else tokens.push(null);
      continue;
    }
    const operator =
      character === "^"
        ? "**"
        : character === "×" || character === "*"
          ? "*"
          : character === "÷" || character === "/"
            ? "/"
            : "+-%".includes(character)
              ? character
              : null;
    if (character === "*" && text[index + 1] === "*") {
      tokens.push({ kind: "operator", text: "**" });
      index += 2;
      continue;
    }
    if (operator) tokens.push({ kind: "operator", text: operator });
    else if (character === "(") tokens.push({ kind: "open", text: "(" });
    else if (character === ")") tokens.push({ kind: "close", text: ")" });
    else if (!/\s/.test(character)) tokens.push(null);
    index++;
  }
  return tokens;
}

/** The longest well-formed expression with at least one operator, written as Python. */
export function arithmeticExpression(text: string): string | null {
  const tokens = tokenize(text);
  let best: string | null = null;
  let start = 0;
  while (start < tokens.length) {
    // A run of expression tokens, then its longest prefix that is a whole expression.
    let end = start;
    while (end < tokens.length && tokens[end] !== null) end++;
    const run = tokens.slice(start, end) as Token[];
    const expression = longestExpression(run);
    if (expression && (best === null || expression.length > best.length)) best = expression;
    start = end + 1;
  }
  return best;
}

function longestExpression(run: Token[]): string | null {
  for (let from = 0; from < run.length; from++) {
    let depth = 0;
    let operators = 0;
    let expectOperand = true;
    let last: string | null = null;
    const pieces: string[] = [];
    for (let at = from; at < run.length; at++) {
      const token = run[at]!;
      if (expectOperand) {
        if (token.kind === "number") expectOperand = false;
        else if (token.kind === "open") depth++;
        else if (token.kind === "operator" && token.text === "-") {
          // A leading minus: part of the operand.
        } else break;
      } else {
        if (token.kind === "operator") {
          operators++;
          expectOperand = true;
        } else if (token.kind === "close" && depth > 0) depth--;
        else break;
      }
      pieces.push(token.text);
      if (!expectOperand && depth === 0 && operators > 0) last = pieces.join(" ");
    }
    if (last) return last.replace(/\( /g, "(").replace(/ \)/g, ")");
  }
  return null;
}

const DATA_OPERATIONS: { words: string[]; label: string; code: string }[] = [
  {
    words: ["standard deviation", "stdev"],
    label: "standard deviation",
    code: "statistics.stdev(values)",
  },
  { words: ["median"], label: "median", code: "statistics.median(values)" },
  { words: ["average", "mean"], label: "mean", code: "statistics.mean(values)" },
  { words: ["sum", "total", "add up"], label: "sum", code: "sum(values)" },
  { words: ["product"], label: "product", code: "math.prod(values)" },
  {
    words: ["maximum", "largest", "biggest", "highest", "max"],
    label: "largest value",
    code: "max(values)",
  },
  { words: ["minimum", "smallest", "lowest", "min"], label: "smallest value", code: "min(values)" },
  { words: ["sort", "sorted", "order"], label: "sorted list", code: "sorted(values)" },
];

function hasWord(text: string, phrase: string): boolean {
  const at = text.indexOf(phrase);
  if (at < 0) return false;
  const before = text[at - 1];
  const after = text[at + phrase.length];
  return (!before || !/[a-z]/.test(before)) && (!after || !/[a-z]/.test(after));
}

function numbersOf(text: string): string[] {
  return tokenize(text)
    .filter((token): token is Token => token?.kind === "number")
    .map((token) => token.text);
}

/** The Python that answers the prompt, or null when it is not a question code can answer. */
export function planCode(prompt: string): CodePlan | null {
  const lower = prompt.toLowerCase();
  const numbers = numbersOf(prompt);
  const prime = /\bis\s{1,8}(\d{1,13})\s{1,8}(?:a\s{1,8})?prime\b/.exec(lower);
  if (prime) {
    const n = prime[1]!;
    return {
      code: [
        `n = ${n}`,
        "is_prime = n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))",
        "print(is_prime)",
      ].join("\n"),
      describe: (output) =>
        output.trim() === "True"
          ? `Yes, ${n} is a prime number.`
          : `No, ${n} is not a prime number.`,
    };
  }
  const factorial = /\bfactorial of (\d{1,4})\b/.exec(lower) ?? /\b(\d{1,4})!/.exec(lower);
  if (factorial && Number(factorial[1]) <= 1000) {
    const n = factorial[1]!;
    return {
      code: ["import math", "", `print(math.factorial(${n}))`].join("\n"),
      describe: (output) => `The factorial of ${n} is ${output.trim()}.`,
    };
  }
  const operation = DATA_OPERATIONS.find((candidate) =>
    candidate.words.some((word) => hasWord(lower, word)),
  );
  if (operation && numbers.length >= 2 && numbers.length <= 10_000) {
    const imports = operation.code.startsWith("statistics.")
      ? ["import statistics", ""]
      : operation.code.startsWith("math.")
        ? ["import math", ""]
        : [];
    return {
      code: [
        ...imports,
        `values = [${numbers.join(", ")}]`,
        `result = ${operation.code}`,
        "print(result)",
      ].join("\n"),
      describe: (output) =>
        `The ${operation.label} of the ${numbers.length} values is ${output.trim()}.`,
    };
  }
  const expression = arithmeticExpression(prompt);
  if (expression) {
    return {
      code: [`result = ${expression}`, "print(result)"].join("\n"),
      describe: (output) => `${expression} = ${output.trim()}`,
    };
  }
  return null;
}

export interface CodeExecutionAnswer {
  code: string;
  result: SandboxResult;
  text: string;
}

/** Writes and runs the code for the prompt; null when the prompt needs none. */
export async function answerWithCode(
  prompt: string,
  options: SandboxOptions = {},
): Promise<CodeExecutionAnswer | null> {
  const plan = planCode(prompt);
  if (!plan) return null;
  const result = await runPython(plan.code, options);
  const text =
    result.outcome === "OUTCOME_OK"
      ? plan.describe(result.output)
      : !result.executed
        ? "I wrote the code above, but it could not be run here, so I have no result to report."
        : result.outcome === "OUTCOME_DEADLINE_EXCEEDED"
          ? "The code above ran out of time before it finished, so I have no result."
          : `The code above failed (${lastLine(result.output)}), so I have no result.`;
  return { code: plan.code, result, text };
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n");
  return lines[lines.length - 1] ?? "an error";
}
