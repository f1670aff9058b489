import { useId, useState, type DragEvent, type ReactNode, type Ref } from 'react';
import { cn } from './cn.ts';

interface FileDropProps {
  /** The input's `accept`: what the picker offers (the feature still checks each file by its own rules). */
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  /** A problem with the last choice: the zone turns red and the input points at the text with this id. */
  invalid?: boolean;
  /** Ids of the texts that describe the input (its rules, its problem). */
  describedBy?: string;
  /** The input's accessible name, when no visible label names it. */
  labelledBy?: string;
  /** The input itself, for a button elsewhere on the page that opens the picker. */
  inputRef?: Ref<HTMLInputElement>;
  /** Called with what was picked or dropped; the input is cleared, so picking the same file again calls it again. */
  onFiles: (files: File[]) => void;
  /** `column`: a tall zone with its content centred (a photo); `row` (default): icon beside the text. */
  layout?: 'row' | 'column';
  className?: string;
  inputTestId?: string;
  zoneTestId?: string;
  children: ReactNode;
}

/**
 * The one file picker: a visually hidden input (keyboard and screen readers use it) and a drop zone, its label, that
 * takes a click or dropped files. What the zone shows (an icon, "Choose a file", a preview) is the caller's.
 */
export function FileDrop({
  accept,
  multiple,
  disabled,
  invalid,
  describedBy,
  labelledBy,
  inputRef,
  onFiles,
  layout = 'row',
  className,
  inputTestId,
  zoneTestId,
  children,
}: FileDropProps) {
  const id = useId();
  const [dragging, setDragging] = useState(false);

  const take = (files: FileList | null | undefined) => {
    if (!files || files.length === 0 || disabled) return;
    onFiles(multiple ? Array.from(files) : [files[0]!]);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <>
      <input
        ref={inputRef}
        id={id}
        type="file"
        accept={accept}
        multiple={multiple}
        className="peer sr-only"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid ? true : undefined}
        disabled={disabled}
        data-testid={inputTestId}
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
      <label
        htmlFor={id}
        data-testid={zoneTestId}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cn(
          'flex cursor-pointer rounded-xl border-2 border-dashed transition-colors',
          'peer-focus-visible:ring-2 peer-focus-visible:ring-accent-400 peer-focus-visible:ring-offset-2',
          layout === 'column'
            ? 'flex-col items-center justify-center gap-3 rounded-2xl px-6 py-10 text-center'
            : 'items-center gap-3 px-4 py-3',
          dragging
            ? 'border-primary-500 bg-primary-50'
            : invalid
              ? 'border-red-300 bg-red-50/40 hover:border-red-400'
              : 'border-slate-300 bg-slate-50/60 hover:border-primary-400 hover:bg-primary-50/50',
          disabled && 'pointer-events-none opacity-60',
          className,
        )}
      >
        {children}
      </label>
    </>
  );
}
