import { describe, expect, it } from 'vitest';
import { attachmentMime, attachmentProblem } from './attachment-file.ts';

const MB = 1024 * 1024;

describe('attachment files', () => {
  it('takes the spec types by extension, in any case, up to 10 MB', () => {
    for (const name of ['a.pdf', 'b.JPG', 'c.jpeg', 'd.png', 'e.edoc'])
      expect(attachmentProblem({ name, size: 10 * MB })).toBeNull();
  });

  it('refuses other types, empty files and files over 10 MB', () => {
    expect(attachmentProblem({ name: 'setup.exe', size: 10 })).toBe('type');
    expect(attachmentProblem({ name: 'notes', size: 10 })).toBe('type');
    expect(attachmentProblem({ name: 'a.pdf', size: 0 })).toBe('empty');
    expect(attachmentProblem({ name: 'a.pdf', size: 10 * MB + 1 })).toBe('size');
  });

  it('names a type for files the browser leaves untyped', () => {
    expect(attachmentMime({ name: 'contract.edoc', type: '' })).toBe('application/vnd.etsi.asic-e+zip');
    expect(attachmentMime({ name: 'scan.pdf', type: 'application/pdf' })).toBe('application/pdf');
  });
});
