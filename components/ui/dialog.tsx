"use client";

import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * The native <dialog>, shown modal while `open` (focus moves in and returns on close, the page
 * behind is inert); Escape asks `onCancel`. Its content is rendered only while it is open.
 */
export function NativeModal({
  open,
  labelledBy,
  onCancel,
  widthClassName,
  children,
}: {
  open: boolean;
  labelledBy: string;
  onCancel(): void;
  widthClassName: string;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      className={`m-auto max-h-[calc(100vh-2rem)] ${widthClassName} rounded-lg border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-black/40 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      {open && children}
    </dialog>
  );
}

/**
 * A modal confirmation on the native <dialog>: focus moves into it and returns on close,
 * Escape cancels, the rest of the page is inert while it is open.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const titleId = useId();
  return (
    <NativeModal
      open={open}
      labelledBy={titleId}
      onCancel={onCancel}
      widthClassName="w-[min(28rem,calc(100vw-2rem))]"
    >
      <div className="flex flex-col gap-3 p-4">
        <h2 id={titleId} className="text-base font-semibold">
          {title}
        </h2>
        {children && <div className="text-sm text-zinc-600 dark:text-zinc-400">{children}</div>}
        <div className="flex justify-end gap-2">
          <Button onClick={onCancel} autoFocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </div>
      </div>
    </NativeModal>
  );
}

export interface ModalDialogProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  /** Width class; dialogs with code or tables are wider than confirmations. */
  widthClassName?: string;
}

/**
 * A modal panel on the native <dialog> (focus moves in and returns on close, Escape closes,
 * the page behind is inert) with a title and a Close button.
 */
export function ModalDialog({
  open,
  title,
  onClose,
  children,
  widthClassName = "w-[min(56rem,calc(100vw-2rem))]",
}: ModalDialogProps) {
  const titleId = useId();
  return (
    <NativeModal
      open={open}
      labelledBy={titleId}
      onCancel={onClose}
      widthClassName={widthClassName}
    >
      <div className="flex flex-col gap-3 p-4">
        <div className="flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-base font-semibold">
            {title}
          </h2>
          <Button size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
        {children}
      </div>
    </NativeModal>
  );
}
