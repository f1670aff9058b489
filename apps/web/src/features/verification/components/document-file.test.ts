import { describe, expect, it } from 'vitest';
import { DOCUMENT_ACCEPT, documentMime, documentProblem } from './document-file.ts';

const MB = 1024 * 1024;

describe('documentProblem', () => {
  it('accepts PDF, JPG, JPEG and PNG up to 10 MB', () => {
    expect(documentProblem({ name: 'id.pdf', type: 'application/pdf', size: 10 * MB })).toBeNull();
    expect(documentProblem({ name: 'id.JPEG', type: 'image/jpeg', size: 1 })).toBeNull();
    expect(documentProblem({ name: 'id.png', type: 'image/png', size: 5 * MB })).toBeNull();
    // Some systems give no type: the extension decides.
    expect(documentProblem({ name: 'scan.jpg', type: '', size: 100 })).toBeNull();
  });

  it('refuses other types, empty files and files over 10 MB', () => {
    expect(documentProblem({ name: 'id.gif', type: 'image/gif', size: 100 })).toBe('type');
    expect(documentProblem({ name: 'id.heic', type: '', size: 100 })).toBe('type');
    expect(documentProblem({ name: 'id.edoc', type: 'application/zip', size: 100 })).toBe('type');
    expect(documentProblem({ name: 'id.pdf', type: 'application/pdf', size: 0 })).toBe('empty');
    expect(documentProblem({ name: 'id.pdf', type: 'application/pdf', size: 10 * MB + 1 })).toBe('size');
  });
});

describe('documentMime', () => {
  it("uses the browser's type, or guesses from the extension", () => {
    expect(documentMime({ name: 'a.pdf', type: 'application/pdf' })).toBe('application/pdf');
    expect(documentMime({ name: 'a.PNG', type: '' })).toBe('image/png');
    expect(documentMime({ name: 'a', type: '' })).toBe('application/octet-stream');
  });

  it('lists the types and extensions for the file input', () => {
    expect(DOCUMENT_ACCEPT.split(',')).toEqual(
      expect.arrayContaining(['application/pdf', '.pdf', '.jpg', '.jpeg', '.png', 'image/png']),
    );
  });
});
