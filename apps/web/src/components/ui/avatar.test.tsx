import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Avatar } from './avatar.tsx';

describe('Avatar', () => {
  it('asks for the photo in its avatar size, keeping the version that lets it be cached for ever', () => {
    render(<Avatar src="/api/cards/c1/photo?v=f1" name="Anna Berzina" alt="Anna's photo" />);
    expect(screen.getByRole('img', { name: "Anna's photo" })).toHaveAttribute('src', '/api/cards/c1/photo?v=f1&size=avatar');
  });

  it('shows the initials without a photo, hidden from screen readers when decorative', () => {
    const { container } = render(<Avatar src={null} name="Anna Berzina" alt="" />);
    expect(container.textContent).toBe('AB');
    expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    expect(screen.queryByRole('img')).toBeNull();
  });
});
