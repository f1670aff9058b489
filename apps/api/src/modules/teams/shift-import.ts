import { SHIFT_IMPORT_ROWS_MAX } from '@tipcard/shared/teams/schemas';

/** What can be wrong with a row of a shift import; the web app words each (teams:import_problem.*). */
export type ImportProblem = 'columns' | 'member' | 'start' | 'end' | 'order' | 'overlap' | 'too_many';

export interface ImportRow {
  /** The line in the file (1 is the header), as the admin's spreadsheet numbers it. */
  line: number;
  member: string;
  startedAt: Date;
  endedAt: Date;
}

/** An ISO 8601 instant with its offset, as the API takes everywhere (`2026-11-20T18:00:00Z`, `…+02:00`). */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;
const instantOf = (cell: string): Date | null => {
  if (!INSTANT.test(cell)) return null;
  const at = new Date(cell);
  return Number.isNaN(at.getTime()) ? null : at;
};

/** The cells of one CSV line: commas (or semicolons, as spreadsheets in lv, fr and es save), double quotes. */
function cellsOf(line: string): string[] {
  const separator = line.includes(';') && !line.includes(',') ? ';' : ',';
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted && char === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

/**
 * Reads a shift import (`member,start,end`, a header line first): each row's member (phone or user id, resolved later)
 * and its instants. Every problem is reported with its line, so the admin can fix the file in one go; the rows are only
 * good when there is none.
 */
export function parseShiftCsv(text: string): { rows: ImportRow[]; problems: Map<number, ImportProblem[]> } {
  const lines = text.split(/\r?\n/);
  const rows: ImportRow[] = [];
  const problems = new Map<number, ImportProblem[]>();
  const report = (line: number, problem: ImportProblem) => problems.set(line, [...(problems.get(line) ?? []), problem]);
  const header = cellsOf(lines[0] ?? '').map((cell) => cell.toLowerCase());
  if (header.join(',') !== 'member,start,end') report(1, 'columns');
  if (lines.slice(1).filter((raw) => raw.trim() !== '').length > SHIFT_IMPORT_ROWS_MAX) {
    report(1, 'too_many');
    return { rows, problems };
  }
  lines.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    const cells = cellsOf(raw);
    if (cells.length !== 3) return report(line, 'columns');
    const [member, start, end] = cells as [string, string, string];
    const startedAt = instantOf(start);
    const endedAt = instantOf(end);
    if (member === '') report(line, 'member');
    if (!startedAt) report(line, 'start');
    if (!endedAt) report(line, 'end');
    if (startedAt && endedAt && endedAt <= startedAt) report(line, 'order');
    if (member !== '' && startedAt && endedAt && endedAt > startedAt) rows.push({ line, member, startedAt, endedAt });
  });
  return { rows, problems };
}
