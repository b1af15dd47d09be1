"use client";

import { formatNumber } from "@/lib/studio/number-format";
import { useState, type ClipboardEvent } from "react";
import { useUploader } from "@/lib/hooks/use-upload";
import { LONG_PASTE_CHARACTERS, mimeTypeOf, type Attachment } from "@/lib/studio/attachment-model";
import { inputsRefusal, type ModelFacts } from "@/lib/studio/model-facts";

/** A long paste's name: "Pasted text", then "Pasted text 2", ... within one prompt. */
function pastedTextName(taken: readonly { displayName: string }[]): string {
  const names = new Set(taken.map((item) => item.displayName));
  let name = "Pasted text";
  for (let index = 2; names.has(name); index++) name = `Pasted text ${index}`;
  return name;
}

/**
 * What comes into a chat's prompt besides typing: files dropped, chosen or pasted (those the
 * model cannot take are refused, naming what it takes), and long pastes, which become an
 * attachment to open rather than megabytes in the prompt box. `problem` says what was refused
 * (or what a link could not attach), `pasteNote` what became of the last long paste.
 */
export function usePromptIntake(
  scope: string,
  facts: ModelFacts | undefined,
  attachments: readonly Attachment[],
) {
  const uploader = useUploader();
  const [problem, setProblem] = useState<string | null>(null);
  const [pasteNote, setPasteNote] = useState<string | null>(null);

  function admit(files: readonly File[]): File[] {
    const typed = files.map((file) => ({
      file,
      displayName: file.name || "pasted file",
      mimeType: mimeTypeOf(file.name, file.type),
    }));
    setProblem(inputsRefusal(facts, typed, "were not attached"));
    return typed.filter((item) => !inputsRefusal(facts, [item], "")).map((item) => item.file);
  }

  function paste(event: ClipboardEvent<HTMLTextAreaElement>): void {
    // Pasted files are the drop zone's around the prompt (react-dropzone takes pastes as drops,
    // through `admit`); only a long text is this box's to turn into an attachment.
    if (event.clipboardData.files.length > 0) return;
    const text = event.clipboardData.getData("text/plain");
    if (text.length <= LONG_PASTE_CHARACTERS) return;
    event.preventDefault();
    const name = pastedTextName(attachments);
    uploader.addText(scope, text, name);
    setProblem(null);
    setPasteNote(
      `The long paste (${formatNumber(text.length)} characters) is attached as “${name}”: open it to read it, remove it to leave it out.`,
    );
  }

  return { problem, setProblem, pasteNote, clearPasteNote: () => setPasteNote(null), admit, paste };
}
