// Signatures for pdf.js's signature editor. pdf.js's full signature dialog is part of its app, not of its viewer
// components, so the editor asks this small manager instead: a typed name becomes the signature's outline through
// the editor's own getFromText/addSignature, as in pdf.js's dialog.
import { useId, useState, type KeyboardEvent } from 'react';
import { focusRing, primaryButton, secondaryButton } from '../../components/ui/styles.js';
import { SIGNATURE_HEIGHT_PT } from './texts.js';

/** The parts of pdf.js's SignatureEditor this manager uses. */
interface SignatureEditor {
  getFromText(text: string, font: { fontFamily: string; fontStyle: string; fontWeight: string }): unknown;
  addSignature(data: unknown, heightInPage: number, description: string, uuid: string | null): void;
  remove(): void;
}

export interface SignatureRequest {
  editor: SignatureEditor;
}

/** The interface pdf.js's AnnotationEditorUIManager calls on its signature manager. */
export function createSignatureManager(ask: (request: SignatureRequest) => void) {
  return {
    getSignature: ({ editor }: { editor: SignatureEditor }) => ask({ editor }),
    loadSignatures: () => Promise.resolve(),
    // pdf.js's editor toolbar asks for an "edit description" button; the typed name is the description, so none.
    renderEditButton: () => {
      const none = document.createElement('span');
      none.hidden = true;
      return Promise.resolve(none);
    },
    destroy: () => {},
  };
}

const SIGNATURE_FONT = { fontFamily: 'cursive', fontStyle: 'italic', fontWeight: '400' };

export function SignaturePrompt({ request, onDone }: { request: SignatureRequest; onDone: () => void }) {
  const [name, setName] = useState('');
  const id = useId();
  const cancel = () => {
    request.editor.remove();
    onDone();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    cancel();
  };
  return (
    <div className="absolute inset-0 z-10 flex items-center justify-center bg-slate-900/50 p-4">
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        onKeyDown={onKeyDown}
        onSubmit={(e) => {
          e.preventDefault();
          const text = name.trim();
          if (!text) return;
          request.editor.addSignature(
            request.editor.getFromText(text, SIGNATURE_FONT),
            SIGNATURE_HEIGHT_PT,
            text,
            null,
          );
          onDone();
        }}
        className="w-full max-w-sm space-y-3 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900"
      >
        <h3 id={id} className="font-semibold text-slate-900 dark:text-white">
          Add a signature
        </h3>
        <input
          type="text"
          autoFocus
          aria-label="Type your signature"
          placeholder="Type your signature"
          value={name}
          onChange={(e) => setName(e.target.value)}
          className={`h-10 w-full rounded-md border border-slate-300 px-2 font-[cursive] text-xl italic dark:border-slate-600 dark:bg-slate-800 ${focusRing}`}
        />
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={cancel}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={!name.trim()}>
            Add
          </button>
        </div>
      </form>
    </div>
  );
}
