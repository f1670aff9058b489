import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { SlideToConfirm } from './slide-to-confirm.tsx';

function setup(props: Partial<Parameters<typeof SlideToConfirm>[0]> = {}) {
  const onConfirm = vi.fn();
  const utils = render(
    <SlideToConfirm
      label="Slide to withdraw €10.00"
      instructions="Or press Enter to confirm"
      busyLabel="Sending…"
      nudgeLabel="Slide the handle all the way to confirm"
      onConfirm={onConfirm}
      {...props}
    />,
  );
  return { onConfirm, slider: screen.getByRole('slider', { name: 'Slide to withdraw €10.00' }), ...utils };
}

describe('SlideToConfirm', () => {
  it('is a named, described, focusable slider', () => {
    const { slider } = setup();
    expect(slider).toHaveAccessibleDescription('Or press Enter to confirm');
    slider.focus();
    expect(slider).toHaveFocus();
    expect(slider).toHaveAttribute('aria-valuetext', '0%');
  });

  it.each(['Enter', ' ', 'End'])('confirms with %j', (key) => {
    const { onConfirm, slider } = setup();
    fireEvent.keyDown(slider, { key });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status')).toHaveTextContent('Sending…');
  });

  it('moves a quarter per arrow and confirms at the end; left and Home go back', () => {
    const { onConfirm, slider } = setup();
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider).toHaveAttribute('aria-valuetext', '50%');
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(slider).toHaveAttribute('aria-valuetext', '25%');
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(slider).toHaveAttribute('aria-valuetext', '0%');
    for (let i = 0; i < 3; i += 1) fireEvent.keyDown(slider, { key: 'ArrowUp' });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(slider).toHaveAttribute('aria-valuetext', '0%');
  });

  it('confirms when a screen reader sets the value to the maximum', () => {
    const { onConfirm, slider } = setup();
    fireEvent.change(slider, { target: { value: '50' } });
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(slider, { target: { value: '100' } });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('does nothing while disabled or busy, and says it is busy', () => {
    const disabled = setup({ disabled: true });
    fireEvent.keyDown(disabled.slider, { key: 'Enter' });
    expect(disabled.onConfirm).not.toHaveBeenCalled();
    disabled.unmount();

    const busy = setup({ loading: true });
    fireEvent.keyDown(busy.slider, { key: 'Enter' });
    expect(busy.onConfirm).not.toHaveBeenCalled();
    expect(busy.slider).toHaveAttribute('aria-valuetext', 'Sending…');
    expect(busy.slider).toHaveAttribute('aria-busy', 'true');
  });

  it('confirms a drag past the threshold, not a tap', () => {
    const { onConfirm, container } = setup();
    const track = container.querySelector<HTMLElement>('[data-testid="slide-to-confirm"]')!;
    Object.defineProperty(track, 'clientWidth', { value: 364 });
    Object.defineProperty(track, 'clientHeight', { value: 64 });
    const handle = track.querySelector<HTMLElement>('.size-13')!;

    fireEvent.pointerDown(handle, { pointerId: 1, clientX: 10, button: 0, pointerType: 'touch' });
    fireEvent.pointerUp(handle, { pointerId: 1, clientX: 10, pointerType: 'touch' });
    expect(onConfirm).not.toHaveBeenCalled();
    expect(screen.getByRole('status')).toHaveTextContent('Slide the handle all the way to confirm');

    fireEvent.pointerDown(handle, { pointerId: 2, clientX: 10, button: 0, pointerType: 'touch' });
    fireEvent.pointerMove(handle, { pointerId: 2, clientX: 200, pointerType: 'touch' });
    fireEvent.pointerUp(handle, { pointerId: 2, clientX: 200, pointerType: 'touch' });
    expect(onConfirm).not.toHaveBeenCalled();

    fireEvent.pointerDown(handle, { pointerId: 3, clientX: 10, button: 0, pointerType: 'mouse' });
    fireEvent.pointerMove(handle, { pointerId: 3, clientX: 300, pointerType: 'mouse' });
    fireEvent.pointerUp(handle, { pointerId: 3, clientX: 300, pointerType: 'mouse' });
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
