import { LOCALES, DEFAULT_LOCALE } from '../src/constants.ts';
import { readCatalogs } from '../src/i18n/node-catalogs.ts';
import { findParityProblems } from '../src/i18n/parity.ts';

const problems = findParityProblems(readCatalogs());
for (const problem of problems) console.error(`i18n: ${problem}`);
if (problems.length > 0) {
  console.error(`i18n: ${problems.length} problem(s) against ${DEFAULT_LOCALE}`);
  process.exit(1);
}
console.log(`i18n: ${LOCALES.join(', ')} have every key and placeholder of ${DEFAULT_LOCALE}`);
