/**
 * `npm run decisions:check` (part of `npm run lint`): the decision records keep their own rules (docs/decisions/
 * README.md): one number per record, a `Status:` line under its title, and one row in the index that links it; an
 * index row links a record that exists; one index table, its rows in order, each once. Prints every problem and exits 1 when there is one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FOLDER = fileURLToPath(new URL('../docs/decisions/', import.meta.url));
/** "accepted", "accepted; amended by …" (with what it amends) or "superseded by NNNN". */
const STATUS = /^Status: (accepted\b|superseded by \[?\d{4})/m;

const records = readdirSync(FOLDER).filter((name) => /^\d{4}-.+\.md$/.test(name));
const index = readFileSync(join(FOLDER, 'README.md'), 'utf8');
const problems: string[] = [];

const byNumber = new Map<string, string[]>();
for (const name of records) byNumber.set(name.slice(0, 4), [...(byNumber.get(name.slice(0, 4)) ?? []), name]);
for (const [number, names] of byNumber) if (names.length > 1) problems.push(`${number} is taken by ${names.join(' and ')}`);

for (const name of records) {
  const text = readFileSync(join(FOLDER, name), 'utf8');
  if (!STATUS.test(text)) problems.push(`${name} has no "Status: accepted" (or "amended by" / "superseded by") line`);
  if (!index.includes(`](${name})`)) problems.push(`${name} has no row in docs/decisions/README.md`);
}
for (const [, linked] of index.matchAll(/\]\((\d{4}-[^)]+\.md)\)/g)) {
  if (!records.includes(linked!)) problems.push(`docs/decisions/README.md links ${linked}, which does not exist`);
}
// One table, a row per number in order: merged branches that each appended their rows leave copies or a second table.
const rowNumbers = [...index.matchAll(/^\| (\d{4}) \|/gm)].map((match) => match[1]!);
if (index.match(/^\| №/gm)!.length > 1) problems.push('docs/decisions/README.md has more than one index table');
for (const [position, number] of rowNumbers.entries()) {
  if (rowNumbers.indexOf(number) !== position) problems.push(`docs/decisions/README.md has row ${number} twice`);
  else if (position > 0 && number < rowNumbers[position - 1]!)
    problems.push(`docs/decisions/README.md lists ${number} after ${rowNumbers[position - 1]}`);
}

if (problems.length > 0) {
  for (const problem of problems) console.error(`decisions: ${problem}`);
  process.exit(1);
}
console.log(`decisions: ${records.length} records, each numbered once, with a status and a row in the index`);
