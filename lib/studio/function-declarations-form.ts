/**
 * The function-declarations form's edits of the chat settings: the declarations tool among the
 * other tools, a new declaration's name, and the calling mode with its allowed function names.
 */
import type { ConversationSettings } from "@/lib/studio/conversation-schema";
import type { FunctionCallingMode, FunctionDeclaration, Tool } from "@/lib/gemini/types";

/** Modes under which the service reads allowedFunctionNames. */
export const MODES_WITH_ALLOWED_NAMES: readonly FunctionCallingMode[] = ["ANY", "VALIDATED"];

/** The index of the tool holding the function declarations, or -1. */
export function declarationsToolIndex(settings: ConversationSettings): number {
  return (settings.tools ?? []).findIndex((tool) => tool.functionDeclarations);
}

/** The settings with these declarations (none: the tool goes), other tools where they were. */
export function withFunctionDeclarations(
  settings: ConversationSettings,
  declarations: readonly FunctionDeclaration[] | undefined,
): ConversationSettings {
  const tools = settings.tools ?? [];
  const index = declarationsToolIndex(settings);
  // The list itself, not a copy: the JSON box beside the form knows its own edit by identity.
  const list = declarations as FunctionDeclaration[] | undefined;
  let next: Tool[];
  if (!declarations?.length) next = tools.filter((_tool, at) => at !== index);
  else if (index < 0) next = [...tools, { functionDeclarations: list }];
  else next = tools.map((tool, at) => (at === index ? { functionDeclarations: list } : tool));
  const names = new Set(declarations?.map((declaration) => declaration.name) ?? []);
  const allowed = settings.toolConfig?.functionCallingConfig?.allowedFunctionNames;
  const result: ConversationSettings = { ...settings, tools: next.length ? next : undefined };
  // A function renamed or removed leaves the allowed names it was in.
  if (allowed?.some((name) => !names.has(name)))
    return withAllowedFunctionNames(
      result,
      allowed.filter((name) => names.has(name)),
    );
  return result;
}

/** A new declaration named `new_function`, `new_function_2`, ... (the first free name). */
export function newFunctionDeclaration(
  declarations: readonly FunctionDeclaration[],
): FunctionDeclaration {
  const taken = new Set(declarations.map((declaration) => declaration.name));
  let name = "new_function";
  for (let count = 2; taken.has(name); count++) name = `new_function_${count}`;
  return { name, description: "", parameters: { type: "OBJECT", properties: {} } };
}

/** The settings with another calling mode; allowed names stay only where the mode reads them. */
export function withCallingMode(
  settings: ConversationSettings,
  mode: FunctionCallingMode | "",
): ConversationSettings {
  const { functionCallingConfig, ...otherConfig } = settings.toolConfig ?? {};
  const allowed = functionCallingConfig?.allowedFunctionNames;
  const calling = {
    ...(mode ? { mode } : {}),
    ...(allowed?.length && mode && MODES_WITH_ALLOWED_NAMES.includes(mode)
      ? { allowedFunctionNames: allowed }
      : {}),
  };
  const toolConfig = Object.keys(calling).length
    ? { ...otherConfig, functionCallingConfig: calling }
    : otherConfig;
  return { ...settings, toolConfig: Object.keys(toolConfig).length ? toolConfig : undefined };
}

/** The settings with these allowed function names (none: every declared function). */
export function withAllowedFunctionNames(
  settings: ConversationSettings,
  names: readonly string[],
): ConversationSettings {
  const { functionCallingConfig, ...otherConfig } = settings.toolConfig ?? {};
  const { allowedFunctionNames: _old, ...calling } = functionCallingConfig ?? {};
  const nextCalling = names.length ? { ...calling, allowedFunctionNames: [...names] } : calling;
  const toolConfig = Object.keys(nextCalling).length
    ? { ...otherConfig, functionCallingConfig: nextCalling }
    : otherConfig;
  return { ...settings, toolConfig: Object.keys(toolConfig).length ? toolConfig : undefined };
}
