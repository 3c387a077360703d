import { useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import './confirm.css';

/**
 * The "are you sure" step of a destructive button, in place of window.confirm: the button asks,
 * a group with the question and two answers takes its place or appears beside it, and the answer
 * "no" (or Escape) gives the focus back to the button. The page owns the step with
 * useConfirmStep and renders ConfirmStep while `asking`.
 */
export function useConfirmStep() {
  const [asking, setAsking] = useState(false);
  /** The button that asks; it gets the focus back when the question is answered "no". */
  const askButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  // In the same task as the change, so that no keystroke lands on the page in between.
  useLayoutEffect(() => {
    if (!asking && refocus.current) askButton.current?.focus();
    refocus.current = false;
  }, [asking]);
  return {
    asking,
    askButton,
    ask: () => setAsking(true),
    /** "No": the question goes, the focus goes back to the button that asked. */
    cancel: () => {
      refocus.current = true;
      setAsking(false);
    },
    /** The question goes; where the focus goes is the page's business (after a delete, its button is gone). */
    end: () => setAsking(false),
  };
}

interface ConfirmStepProps {
  /** Names the group, so a screen reader says it with the answer that has the focus. */
  question: string;
  confirm: string;
  cancel: string;
  /** Which answer takes the focus: the safe one by default. */
  focus?: 'confirm' | 'cancel';
  /** A request is under way: the confirming button is disabled. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmStep({ question, confirm, cancel, focus = 'cancel', busy, onConfirm, onCancel }: ConfirmStepProps) {
  const questionId = useId();
  const confirmButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => (focus === 'confirm' ? confirmButton : cancelButton).current?.focus(), []);
  const keyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    // The page may have its own Escape (the zones map ends drawing with it).
    event.stopPropagation();
    onCancel();
  };
  return (
    <div class="confirm" role="group" aria-labelledby={questionId} onKeyDown={keyDown}>
      <span id={questionId} class="confirm-question">
        {question}
      </span>
      <button type="button" class="danger" ref={confirmButton} disabled={busy} onClick={onConfirm}>
        {confirm}
      </button>
      <button type="button" class="secondary" ref={cancelButton} onClick={onCancel}>
        {cancel}
      </button>
    </div>
  );
}
