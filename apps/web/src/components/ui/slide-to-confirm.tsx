import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Check, ChevronsRight } from 'lucide-react';
import { cn } from './cn.ts';
import { Spinner } from './spinner.tsx';

interface SlideToConfirmProps {
  /** What sliding does, shown on the track and read as the control's name: "Slide to withdraw €10.00". */
  label: string;
  /** How to do it without dragging, read after the name: "Press Enter to confirm". */
  instructions: string;
  /** Announced and shown while the parent works on the confirmation. */
  busyLabel: string;
  /** Announced when a tap did not slide far enough. */
  nudgeLabel: string;
  onConfirm: () => void;
  loading?: boolean;
  disabled?: boolean;
  className?: string;
}

/** How far (0–1) the handle must travel for a drag to count. */
const THRESHOLD = 0.9;
/** One arrow key press moves a quarter of the way: four presses (or End, Enter, Space) confirm. */
const KEY_STEP = 25;

/**
 * A slide-to-submit control for money that leaves the account: a drag with a finger or a mouse, and, for the
 * keyboard and screen readers, a native range input underneath (role slider, its name and instructions, value
 * text), which arrows, End, Enter or Space complete. A plain tap on the handle does not confirm: it only tells how.
 * Snapping back is a transition that reduced motion turns off.
 */
export function SlideToConfirm({
  label,
  instructions,
  busyLabel,
  nudgeLabel,
  onConfirm,
  loading = false,
  disabled = false,
  className,
}: SlideToConfirmProps) {
  const trackRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const drag = useRef<{ pointerId: number; startX: number; width: number; moved: boolean } | null>(null);
  // 0–100; while dragging it follows the pointer, otherwise it is where the keys left it.
  const [value, setValue] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const hintId = useId();
  const inactive = disabled || loading;
  const shown = loading ? 100 : value;

  function confirm() {
    if (inactive) return;
    setValue(0);
    setAnnouncement(busyLabel);
    onConfirm();
  }

  function moveTo(next: number) {
    const clamped = Math.max(0, Math.min(100, next));
    if (clamped >= 100) confirm();
    else setValue(clamped);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (inactive) return;
    const steps: Record<string, number> = {
      ArrowRight: KEY_STEP,
      ArrowUp: KEY_STEP,
      PageUp: 50,
      ArrowLeft: -KEY_STEP,
      ArrowDown: -KEY_STEP,
      PageDown: -50,
    };
    if (event.key === 'Enter' || event.key === ' ' || event.key === 'End') {
      event.preventDefault();
      confirm();
    } else if (event.key === 'Home') {
      event.preventDefault();
      setValue(0);
    } else if (event.key in steps) {
      event.preventDefault();
      moveTo(value + steps[event.key]!);
    }
  }

  function travel(): number {
    const track = trackRef.current;
    // The handle is as wide as the track's inner height (4rem less the padding): it travels width − height.
    return track ? Math.max(1, track.clientWidth - track.clientHeight) : 1;
  }

  function onPointerDown(event: PointerEvent<HTMLDivElement>) {
    if (inactive || (event.pointerType === 'mouse' && event.button !== 0)) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { pointerId: event.pointerId, startX: event.clientX, width: travel(), moved: false };
    setDragging(true);
    inputRef.current?.focus({ preventScroll: true });
  }

  function onPointerMove(event: PointerEvent<HTMLDivElement>) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.startX;
    if (Math.abs(dx) > 4) current.moved = true;
    setValue(Math.max(0, Math.min(100, (dx / current.width) * 100)));
  }

  function endDrag(event: PointerEvent<HTMLDivElement>, cancelled: boolean) {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    drag.current = null;
    setDragging(false);
    const progress = ((event.clientX - current.startX) / current.width) * 100;
    if (!cancelled && progress >= THRESHOLD * 100) {
      confirm();
      return;
    }
    setValue(0);
    if (!current.moved) setAnnouncement(nudgeLabel);
  }

  return (
    <div className={cn('space-y-2', className)}>
      <div
        ref={trackRef}
        data-testid="slide-to-confirm"
        data-state={loading ? 'busy' : dragging ? 'dragging' : 'idle'}
        className={cn(
          'relative h-16 touch-pan-y select-none overflow-hidden rounded-full p-1.5 ring-1 ring-inset transition-colors',
          inactive ? 'bg-slate-100 ring-slate-200' : 'bg-primary-50 ring-primary-200',
          'has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-accent-400',
        )}
      >
        {/* The accessible control: a visually hidden native range input the keys and screen readers drive. */}
        <input
          ref={inputRef}
          type="range"
          min={0}
          max={100}
          step={KEY_STEP}
          value={Math.round(shown)}
          disabled={disabled}
          aria-label={label}
          aria-describedby={hintId}
          aria-valuetext={loading ? busyLabel : `${Math.round(shown)}%`}
          aria-busy={loading || undefined}
          onKeyDown={onKeyDown}
          onChange={(event) => !inactive && moveTo(Number(event.target.value))}
          className="peer sr-only"
        />
        {/* The filled part behind the handle. */}
        <div
          aria-hidden="true"
          className={cn(
            'absolute inset-y-1.5 left-1.5 rounded-full bg-primary-800/15',
            !dragging && 'transition-[width] duration-300 ease-out motion-reduce:transition-none',
          )}
          style={{ width: `calc(${shown / 100} * (100% - 4rem) + 3.25rem)` }}
        />
        <span
          aria-hidden="true"
          className={cn(
            'pointer-events-none absolute inset-0 flex items-center justify-center pl-14 pr-5 text-center text-sm font-semibold transition-opacity sm:text-base',
            inactive && !loading ? 'text-slate-500' : 'text-primary-900',
          )}
          style={{ opacity: loading ? 1 : Math.max(0.15, 1 - shown / 70) }}
        >
          <span className="truncate">{loading ? busyLabel : label}</span>
        </span>
        <div
          aria-hidden="true"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={(event) => endDrag(event, false)}
          onPointerCancel={(event) => endDrag(event, true)}
          onLostPointerCapture={(event) => drag.current && endDrag(event, true)}
          className={cn(
            'absolute top-1.5 z-10 grid size-13 touch-none place-items-center rounded-full shadow-md',
            inactive && !loading
              ? 'cursor-not-allowed bg-slate-300 text-white'
              : 'cursor-grab bg-primary-800 text-white active:cursor-grabbing',
            'peer-focus-visible:ring-4 peer-focus-visible:ring-accent-400/60',
            !dragging && 'transition-[left] duration-300 ease-out motion-reduce:transition-none',
          )}
          // The handle (3.25rem) travels the track's inner width less its own: 100% − 4rem in all.
          style={{ left: `calc(0.375rem + (100% - 4rem) * ${shown / 100})` }}
        >
          {loading ? <Spinner /> : shown >= 100 ? <Check className="size-6" /> : <ChevronsRight className="size-6" />}
        </div>
      </div>
      <p id={hintId} className="text-center text-xs text-slate-500">
        {instructions}
      </p>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}
