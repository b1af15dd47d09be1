/**
 * The text patterns of scenarios (`match.textMatches`), matched in time linear in the text:
 * a pattern is compiled to a Thompson automaton and run as a set of states (a Pike VM without
 * captures), so no pattern, whoever wrote it, can make a match backtrack. The syntax is
 * JavaScript's regular expressions without what only a backtracking engine can do:
 * backreferences and lookaround are refused with a message that names them. `(?i)` at the
 * start makes the match ignore case. Kept whole: parser, compiler and runner share the
 * instruction set and are read together.
 */

export class PatternError extends Error {}

/** Longest pattern accepted, and most instructions its automaton may have (counted repeats expand). */
export const MAX_PATTERN_LENGTH = 1_000;
const MAX_PROGRAM_SIZE = 20_000;
const MAX_REPEAT = 1_000;

type CharTest = (codePoint: number) => boolean;

type Node =
  | { kind: "empty" }
  | { kind: "char"; test: CharTest; literal?: number }
  | { kind: "concat"; items: Node[] }
  | { kind: "alternate"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number | null }
  | { kind: "assert"; assertion: Assertion };

type Assertion = "start" | "end" | "word-boundary" | "not-word-boundary";

type Instruction =
  | { op: "char"; test: CharTest }
  | { op: "split"; next: number; alternative: number }
  | { op: "jump"; next: number }
  | { op: "assert"; assertion: Assertion }
  | { op: "match" };

const isDigit: CharTest = (c) => c >= 48 && c <= 57;
const isWord: CharTest = (c) =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isSpace: CharTest = (c) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;
const not =
  (test: CharTest): CharTest =>
  (c) =>
    !test(c);
const isLineBreak: CharTest = (c) => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;

const CLASS_ESCAPES: Record<string, CharTest> = {
  d: isDigit,
  D: not(isDigit),
  w: isWord,
  W: not(isWord),
  s: isSpace,
  S: not(isSpace),
};
const CONTROL_ESCAPES: Record<string, number> = { n: 10, r: 13, t: 9, f: 12, v: 11, "0": 0 };
const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/-";

/** A compiled pattern: `test(text)` says whether it occurs anywhere in the text. */
export class LinearPattern {
  private constructor(
    readonly source: string,
    private readonly program: Instruction[],
    readonly ignoreCase: boolean,
    /** A run of characters every match contains (lower case when ignoring case); may be "". */
    readonly literal: string,
  ) {}

  /** Compiles `source`; throws PatternError naming what is refused and where. */
  static compile(source: string): LinearPattern {
    if (source.length > MAX_PATTERN_LENGTH)
      throw new PatternError(`is longer than ${MAX_PATTERN_LENGTH} characters`);
    let body = source;
    let ignoreCase = false;
    if (body.startsWith("(?i)")) {
      ignoreCase = true;
      body = body.slice(4);
    }
    const node = new Parser(body, source.length - body.length, ignoreCase).parse();
    const program: Instruction[] = [];
    emit(node, program);
    program.push({ op: "match" });
    return new LinearPattern(source, program, ignoreCase, requiredLiteral(node, ignoreCase));
  }

  /** Whether the pattern occurs in `text`: one pass, at most (instructions) steps per character. */
  test(text: string): boolean {
    if (this.literal && !(this.ignoreCase ? lowerCased(text) : text).includes(this.literal))
      return false;
    const program = this.program;
    let current = new StateSet(program.length);
    let next = new StateSet(program.length);
    let previous = -1;
    let index = 0;
    for (;;) {
      const codePoint = index < text.length ? text.codePointAt(index)! : -1;
      // A new attempt starts at every position (an unanchored search).
      if (this.addState(current, 0, previous, codePoint)) return true;
      if (codePoint === -1) return false;
      next.clear();
      for (let position = 0; position < current.size; position++) {
        const instruction = program[current.states[position]!]!;
        if (instruction.op === "char" && instruction.test(codePoint)) {
          const following = index + (codePoint > 0xffff ? 2 : 1);
          const after = following < text.length ? text.codePointAt(following)! : -1;
          if (this.addState(next, current.states[position]! + 1, codePoint, after)) return true;
        }
      }
      [current, next] = [next, current];
      previous = codePoint;
      index += codePoint > 0xffff ? 2 : 1;
    }
  }

  /** Adds a state and everything reachable from it without reading; true when that reaches a match. */
  private addState(set: StateSet, start: number, previous: number, following: number): boolean {
    const stack = [start];
    while (stack.length > 0) {
      const at = stack.pop()!;
      if (!set.mark(at)) continue;
      const instruction = this.program[at]!;
      switch (instruction.op) {
        case "match":
          return true;
        case "jump":
          stack.push(instruction.next);
          break;
        case "split":
          stack.push(instruction.alternative, instruction.next);
          break;
        case "assert":
          if (holds(instruction.assertion, previous, following)) stack.push(at + 1);
          break;
        case "char":
          set.add(at);
          break;
      }
    }
    return false;
  }
}

function holds(assertion: Assertion, previous: number, following: number): boolean {
  switch (assertion) {
    case "start":
      return previous === -1;
    case "end":
      return following === -1;
    case "word-boundary":
    case "not-word-boundary": {
      const boundary =
        (previous !== -1 && isWord(previous)) !== (following !== -1 && isWord(following));
      return assertion === "word-boundary" ? boundary : !boundary;
    }
  }
}

/** The states of one step: a list for order and a generation mark per instruction for membership. */
class StateSet {
  readonly states: number[] = [];
  private readonly seen: Uint32Array;
  private generation = 1;

  constructor(size: number) {
    this.seen = new Uint32Array(size);
  }

  get size(): number {
    return this.states.length;
  }

  clear(): void {
    this.states.length = 0;
    this.generation += 1;
  }

  /** Marks a state visited in this step; false when it already was. */
  mark(state: number): boolean {
    if (this.seen[state] === this.generation) return false;
    this.seen[state] = this.generation;
    return true;
  }

  add(state: number): void {
    this.states.push(state);
  }
}

function emit(node: Node, program: Instruction[]): void {
  if (program.length > MAX_PROGRAM_SIZE)
    throw new PatternError(
      `makes an automaton of more than ${MAX_PROGRAM_SIZE} steps (lower its counted repeats)`,
    );
  switch (node.kind) {
    case "empty":
      return;
    case "char":
      program.push({ op: "char", test: node.test });
      return;
    case "assert":
      program.push({ op: "assert", assertion: node.assertion });
      return;
    case "concat":
      for (const item of node.items) emit(item, program);
      return;
    case "alternate": {
      const jumps: Array<{ op: "jump"; next: number }> = [];
      node.options.forEach((option, index) => {
        if (index < node.options.length - 1) {
          const split = { op: "split" as const, next: program.length + 1, alternative: 0 };
          program.push(split);
          emit(option, program);
          const jump = { op: "jump" as const, next: 0 };
          program.push(jump);
          jumps.push(jump);
          split.alternative = program.length;
        } else emit(option, program);
      });
      for (const jump of jumps) jump.next = program.length;
      return;
    }
    case "repeat": {
      for (let count = 0; count < node.min; count++) emit(node.node, program);
      if (node.max === null) {
        const split = { op: "split" as const, next: program.length + 1, alternative: 0 };
        const loop = program.length;
        program.push(split);
        emit(node.node, program);
        program.push({ op: "jump", next: loop });
        split.alternative = program.length;
        return;
      }
      const splits: Array<{ op: "split"; next: number; alternative: number }> = [];
      for (let count = node.min; count < node.max; count++) {
        const split = { op: "split" as const, next: program.length + 1, alternative: 0 };
        program.push(split);
        splits.push(split);
        emit(node.node, program);
      }
      for (const split of splits) split.alternative = program.length;
      return;
    }
  }
}

/** A recursive-descent parser of the accepted syntax; positions in errors count from the pattern's start. */
class Parser {
  private position = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly offset: number,
    /** Characters and classes then match either case (folded before a class is negated). */
    private readonly ignoreCase: boolean,
  ) {}

  private literal(codePoint: number): Node {
    const node = literal(codePoint);
    return this.ignoreCase && node.kind === "char" ? { ...node, test: folded(node.test) } : node;
  }

  parse(): Node {
    const node = this.alternation();
    if (this.position < this.text.length) this.fail(`has an unmatched ")"`);
    return node;
  }

  private fail(message: string): never {
    throw new PatternError(`${message} at position ${this.position + this.offset}`);
  }

  private peek(): string | undefined {
    return this.text[this.position];
  }

  private alternation(): Node {
    const options = [this.sequence()];
    while (this.peek() === "|") {
      this.position++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alternate", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.position < this.text.length && this.peek() !== "|" && this.peek() !== ")") {
      items.push(this.quantified(this.atom()));
    }
    if (items.length === 0) return { kind: "empty" };
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  private quantified(atom: Node): Node {
    const character = this.peek();
    let min: number;
    let max: number | null;
    if (character === "*" || character === "+" || character === "?") {
      this.position++;
      [min, max] = character === "*" ? [0, null] : character === "+" ? [1, null] : [0, 1];
    } else if (character === "{" && /^\{\d+(?:,\d*)?\}/.test(this.text.slice(this.position))) {
      const found = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.text.slice(this.position))!;
      this.position += found[0].length;
      min = Number(found[1]);
      max = found[2] === undefined ? min : found[3] ? Number(found[3]) : null;
      if (min > MAX_REPEAT || (max !== null && max > MAX_REPEAT))
        this.fail(`repeats more than ${MAX_REPEAT} times`);
      if (max !== null && max < min) this.fail("has a repeat whose maximum is below its minimum");
    } else return atom;
    if (atom.kind === "assert" || atom.kind === "empty") this.fail("repeats nothing");
    // Lazy and greedy repeats match the same texts; only the match's extent would differ.
    if (this.peek() === "?") this.position++;
    if (this.peek() === "+") this.fail("uses a possessive repeat, which is not supported");
    return { kind: "repeat", node: atom, min, max };
  }

  private atom(): Node {
    const character = this.peek()!;
    switch (character) {
      case "(":
        return this.group();
      case "[":
        return this.characterClass();
      case ".":
        this.position++;
        return { kind: "char", test: not(isLineBreak) };
      case "^":
        this.position++;
        return { kind: "assert", assertion: "start" };
      case "$":
        this.position++;
        return { kind: "assert", assertion: "end" };
      case "\\":
        return this.escape();
      case "*":
      case "+":
      case "?":
        return this.fail(`has "${character}" with nothing to repeat`);
      case "{":
      case "}":
      case "]":
        this.position++;
        return this.literal(character.codePointAt(0)!);
      default: {
        const codePoint = this.text.codePointAt(this.position)!;
        this.position += codePoint > 0xffff ? 2 : 1;
        return this.literal(codePoint);
      }
    }
  }

  private group(): Node {
    const rest = this.text.slice(this.position);
    if (/^\(\?<?[=!]/.test(rest))
      this.fail("uses lookaround, which needs a backtracking matcher: it is refused");
    if (rest.startsWith("(?:")) this.position += 3;
    else if (/^\(\?<[A-Za-z_$][\w$]*>/.test(rest)) this.position += rest.indexOf(">") + 1;
    else if (rest.startsWith("(?")) this.fail('has an unknown group kind "(?"');
    else this.position += 1;
    if (++this.depth > 100) this.fail("nests groups more than 100 deep");
    const node = this.alternation();
    this.depth--;
    if (this.peek() !== ")") this.fail('has an unclosed "("');
    this.position++;
    return node;
  }

  private escape(): Node {
    const next = this.text[this.position + 1];
    if (next === undefined) this.fail("ends with a lone backslash");
    if (/[1-9]/.test(next) || next === "k")
      this.fail("uses a backreference, which needs a backtracking matcher: it is refused");
    if (next === "b" || next === "B") {
      this.position += 2;
      return { kind: "assert", assertion: next === "b" ? "word-boundary" : "not-word-boundary" };
    }
    const classTest = CLASS_ESCAPES[next];
    if (classTest) {
      this.position += 2;
      return { kind: "char", test: classTest };
    }
    return this.literal(this.escapedCodePoint());
  }

  /** The character of an escape (`\n`, `\x41`, `\u{1F600}`, `\.`) at the current backslash. */
  private escapedCodePoint(): number {
    const next = this.text[this.position + 1]!;
    const control = CONTROL_ESCAPES[next];
    if (control !== undefined && !(next === "0" && /\d/.test(this.text[this.position + 2] ?? ""))) {
      this.position += 2;
      return control;
    }
    const rest = this.text.slice(this.position + 2);
    const hex =
      next === "x"
        ? /^[0-9a-fA-F]{2}/.exec(rest)
        : next === "u"
          ? /^(?:[0-9a-fA-F]{4}|\{[0-9a-fA-F]{1,6}\})/.exec(rest)
          : null;
    if (hex) {
      this.position += 2 + hex[0].length;
      const value = Number.parseInt(hex[0].replace(/[{}]/g, ""), 16);
      if (value > 0x10ffff) this.fail("names a code point beyond U+10FFFF");
      return value;
    }
    if (SYNTAX_CHARACTERS.includes(next) || /[^\w\s]/.test(next)) {
      this.position += 2;
      return next.codePointAt(0)!;
    }
    return this.fail(`has an unknown escape "\\${next}"`);
  }

  private characterClass(): Node {
    this.position++;
    const negated = this.peek() === "^";
    if (negated) this.position++;
    const tests: CharTest[] = [];
    let first = true;
    while (this.peek() !== "]" || first) {
      if (this.position >= this.text.length) this.fail('has an unclosed "["');
      first = false;
      const low = this.classMember();
      if (typeof low === "function") {
        tests.push(low);
        continue;
      }
      if (
        this.peek() === "-" &&
        this.text[this.position + 1] !== "]" &&
        this.position + 1 < this.text.length
      ) {
        this.position++;
        const high = this.classMember();
        if (typeof high === "function") this.fail("has a range that ends in a class escape");
        if (high < low) this.fail("has a range out of order");
        tests.push((c) => c >= low && c <= high);
      } else tests.push((c) => c === low);
    }
    this.position++;
    const members: CharTest = (c) => tests.some((member) => member(c));
    const test = this.ignoreCase ? folded(members) : members;
    return { kind: "char", test: negated ? not(test) : test };
  }

  /** One member of a class: a character (its code point) or a class escape (its test). */
  private classMember(): number | CharTest {
    const character = this.peek()!;
    if (character !== "\\") {
      const codePoint = this.text.codePointAt(this.position)!;
      this.position += codePoint > 0xffff ? 2 : 1;
      return codePoint;
    }
    const next = this.text[this.position + 1];
    if (next === undefined) this.fail("ends with a lone backslash");
    const classTest = CLASS_ESCAPES[next];
    if (classTest) {
      this.position += 2;
      return classTest;
    }
    if (next === "b") {
      this.position += 2;
      return 8;
    }
    return this.escapedCodePoint();
  }
}

function literal(codePoint: number): Node {
  return { kind: "char", test: (c) => c === codePoint, literal: codePoint };
}

/** A test that also takes a character's other case. */
function folded(test: CharTest): CharTest {
  return (c) => {
    if (test(c)) return true;
    const character = String.fromCodePoint(c);
    const lower = character.toLowerCase();
    const upper = character.toUpperCase();
    return (
      (lower !== character && test(lower.codePointAt(0)!)) ||
      (upper !== character && test(upper.codePointAt(0)!))
    );
  };
}

/**
 * The longest run of literal characters every match must contain (a cheap `includes` before
 * the automaton runs: most texts are refused by it). With `ignoreCase`, only ASCII letters and
 * others whose case is exact count, compared in lower case.
 */
function requiredLiteral(node: Node, ignoreCase: boolean): string {
  let best = "";
  let run = "";
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  const visit = (item: Node) => {
    if (item.kind === "concat") for (const part of item.items) visit(part);
    else if (
      item.kind === "char" &&
      item.literal !== undefined &&
      (!ignoreCase || item.literal < 128)
    )
      run += String.fromCodePoint(item.literal);
    else if (item.kind !== "assert" && item.kind !== "empty") end();
  };
  visit(node);
  end();
  return ignoreCase ? best.toLowerCase() : best;
}

/** The lower-case form of the text last tested, kept while one request is tested by many patterns. */
let lowered = { text: "", lower: "" };

function lowerCased(text: string): string {
  if (lowered.text !== text) lowered = { text, lower: text.toLowerCase() };
  return lowered.lower;
}
