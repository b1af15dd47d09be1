/**
 * Live counters of the engine's generations (monitoring, and tests that check an aborted
 * generation stopped working): how many run now, and how many tokens they produced in all.
 */
let activeGenerations = 0;
let generatedTokens = 0;

/** The live counters. */
export function generationStats(): { active: number; tokens: number } {
  return { active: activeGenerations, tokens: generatedTokens };
}

export function generationStarted(): void {
  activeGenerations += 1;
}

export function generationEnded(): void {
  activeGenerations -= 1;
}

export function countGeneratedTokens(count: number): void {
  generatedTokens += count;
}
