import { describe, expect, it } from 'vitest';
import { photoProblem } from './photo-file.ts';

describe('photoProblem', () => {
  it('accepts jpg and png up to 10 MB', () => {
    expect(photoProblem({ name: 'me.jpg', type: 'image/jpeg', size: 1000 })).toBeNull();
    expect(photoProblem({ name: 'me.png', type: 'image/png', size: 10 * 1024 * 1024 })).toBeNull();
  });
  it('rejects other types, empty files and files over 10 MB', () => {
    expect(photoProblem({ name: 'me.gif', type: 'image/gif', size: 1000 })).toBe('type');
    expect(photoProblem({ name: 'me.pdf', type: '', size: 1000 })).toBe('type');
    expect(photoProblem({ name: 'me.png', type: 'image/png', size: 0 })).toBe('empty');
    expect(photoProblem({ name: 'me.png', type: 'image/png', size: 10 * 1024 * 1024 + 1 })).toBe('size');
  });
});
